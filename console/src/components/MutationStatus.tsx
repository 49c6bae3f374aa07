import type { ReactNode } from 'react';
import { ErrorBox } from './States';

/** A write's outcome under its form: the service's error when it failed, a status line when it succeeded. */
export function MutationStatus<T>({
  mutation,
  failed,
  done,
}: {
  mutation: { error: unknown; isSuccess: boolean; data: T | undefined };
  /** the error box's title, e.g. "Could not save" */
  failed: string;
  /** the status line's text, from the service's answer when it needs it */
  done: ReactNode | ((data: T) => ReactNode);
}) {
  return (
    <>
      <ErrorBox error={mutation.error} title={failed} />
      {mutation.isSuccess ? (
        <p className="notice" role="status">
          {typeof done === 'function' ? done(mutation.data as T) : done}
        </p>
      ) : null}
    </>
  );
}
