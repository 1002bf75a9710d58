import type { Config } from "tailwindcss";

// Loaded from app/globals.css through `@config`; Tailwind 4 reads `content` and `theme.extend` from here.
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}", "./lib/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        // Fuel-amber brand scale; 600/700 keep WCAG AA contrast on white for text and buttons.
        brand: {
          50: "#fff8eb",
          100: "#feeac7",
          200: "#fdd28a",
          300: "#fcb44d",
          400: "#fb9824",
          500: "#f5760b",
          600: "#d95306",
          700: "#b43709",
          800: "#922b0e",
          900: "#78240f",
          950: "#451003",
        },
      },
      fontFamily: {
        // Inter, shipped with the app through next/font/local (app/layout.tsx sets --font-inter); system fonts after it.
        sans: [
          "var(--font-inter)",
          "system-ui",
          "-apple-system",
          '"Segoe UI"',
          "Roboto",
          '"Helvetica Neue"',
          "Arial",
          '"Noto Sans"',
          "sans-serif",
          '"Apple Color Emoji"',
          '"Segoe UI Emoji"',
        ],
      },
    },
  },
};

export default config;
