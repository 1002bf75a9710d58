// Static landing page: it reads no request data, so `next build` prerenders it.
export default function HomePage() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-2xl flex-col justify-center px-6 py-16">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Fleet Fuel</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">Fleet Fuel Dashboard</h1>
      <p className="mt-6 text-lg leading-8 text-slate-700">
        See your fleet&apos;s fuel transactions, spend and stations in one place, straight from the Fleet Fuel Customer
        API.
      </p>
      <p
        className="mt-8 rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900"
        role="note"
      >
        Sign-in with your API key pair arrives soon.
      </p>
    </main>
  );
}
