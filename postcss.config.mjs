// Tailwind 4 ships its own PostCSS plugin; it handles imports and vendor prefixes itself.
const config = {
  plugins: {
    "@tailwindcss/postcss": {},
  },
};

export default config;
