"use client";

import { type SubmitEvent, useEffect, useRef, useState } from "react";

import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { BffRequestError, NETWORK_ERROR_MESSAGE } from "@/lib/queries/fetch-json";
import { signIn, type SignInRequest } from "@/lib/queries/session";

export interface LoginFormProps {
  /** Where to go after signing in: already checked to be a same-site path (safeNextPath). */
  next: string;
  /** The key id of the sandbox's demo key when the server offers it (local sandbox only); its secret stays there. */
  demoKeyId?: string | undefined;
}

interface FailedAttempt {
  message: string;
  /** Counts attempts, so the same message twice still moves focus back. */
  attempt: number;
}

const INPUT_CLASSES =
  "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-500 dark:border-slate-500 dark:bg-slate-950 dark:text-slate-50 dark:placeholder:text-slate-400";

export function LoginForm({ next, demoKeyId }: LoginFormProps) {
  const { isPending, failure, submit, submitRef } = useSignIn(next);

  function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void submit({ keyId: readField(data, "keyId").trim(), secret: readField(data, "secret") });
  }

  return (
    // method="post": should someone submit before the page's script runs, the secret goes in a request body to our
    // own server, never into a URL (history, logs).
    <form method="post" className="space-y-5" onSubmit={handleSubmit}>
      <Field label="Key ID" id="login-key-id" controlClassName={`mt-1 ${INPUT_CLASSES}`}>
        {(control) => (
          <input
            {...control}
            name="keyId"
            type="text"
            required
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
          />
        )}
      </Field>
      <SecretField />

      {failure === null ? null : (
        <div
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
        >
          {failure.message}
        </div>
      )}

      <button
        ref={submitRef}
        type="submit"
        disabled={isPending}
        className={buttonClasses("primary", "w-full py-2.5 text-base")}
      >
        {isPending ? "Signing in…" : "Sign in"}
      </button>

      {demoKeyId === undefined ? null : (
        <DemoKey
          keyId={demoKeyId}
          disabled={isPending}
          onSignIn={() => {
            void submit({ demo: true });
          }}
        />
      )}
    </form>
  );
}

/** Signing in: one attempt at a time; a failure is kept (with a count) and focus goes back to the button. */
function useSignIn(next: string) {
  const [isPending, setIsPending] = useState(false);
  const [failure, setFailure] = useState<FailedAttempt | null>(null);
  const submitRef = useRef<HTMLButtonElement>(null);

  // The submit button was disabled while pending, which drops keyboard focus; give it back after a failure.
  useEffect(() => {
    if (failure !== null) submitRef.current?.focus();
  }, [failure]);

  async function submit(request: SignInRequest) {
    if (isPending) return;
    setIsPending(true);
    setFailure(null);
    try {
      await signIn(request);
      // A full navigation: the next page renders on the server with the new session cookie. The button stays
      // pending until the page goes.
      window.location.assign(next);
    } catch (error) {
      setFailure((previous) => ({ message: describeFailure(error), attempt: (previous?.attempt ?? 0) + 1 }));
      setIsPending(false);
    }
  }

  return { isPending, failure, submit, submitRef };
}

/** The secret, hidden by default, with a button that shows it (for checking what was pasted). */
function SecretField() {
  const [isSecretVisible, setIsSecretVisible] = useState(false);
  return (
    <Field label="Secret" id="login-secret" controlClassName={`${INPUT_CLASSES} pr-20`}>
      {(control) => (
        <div className="relative mt-1">
          <input
            {...control}
            name="secret"
            type={isSecretVisible ? "text" : "password"}
            required
            autoComplete="current-password"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
          />
          <button
            type="button"
            aria-controls={control.id}
            onClick={() => {
              setIsSecretVisible((visible) => !visible);
            }}
            className="absolute inset-y-1 right-1 rounded px-3 text-sm font-medium text-brand-800 hover:bg-slate-100 dark:text-brand-300 dark:hover:bg-slate-800"
          >
            {isSecretVisible ? "Hide" : "Show"}
            <span className="sr-only"> secret</span>
          </button>
        </div>
      )}
    </Field>
  );
}

/** The local sandbox's demo key, offered by id (its secret stays on the server). */
function DemoKey({ keyId, disabled, onSignIn }: { keyId: string; disabled: boolean; onSignIn: () => void }) {
  return (
    <section
      aria-labelledby="demo-key-title"
      className="rounded-md border border-dashed border-slate-400 p-4 text-sm dark:border-slate-500"
    >
      <h2 id="demo-key-title" className="font-semibold text-slate-900 dark:text-slate-50">
        Trying it out?
      </h2>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        This dashboard is connected to the local sandbox. Its demo key{" "}
        <code className="font-mono break-all">{keyId}</code> sees the sample fleet Prairie Freight Lines.
      </p>
      <button
        type="button"
        disabled={disabled}
        onClick={onSignIn}
        className={buttonClasses("secondary", "mt-3 w-full")}
      >
        Sign in with the demo key
      </button>
    </section>
  );
}

function readField(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * The BFF's messages are written for people (wrong or revoked pair, the seconds to wait when rate limited, the
 * upstream down), so they are shown as sent; only failures without one get ours.
 */
function describeFailure(error: unknown): string {
  if (!(error instanceof BffRequestError)) return "Something went wrong while signing in. Please try again.";
  if (error.isNetworkError) return NETWORK_ERROR_MESSAGE;
  if (error.code === "unexpected_response" && error.status >= 500) {
    return "The dashboard's server is not answering properly right now. Please try again in a minute.";
  }
  return error.message;
}
