import { ShownOnce } from '../../components/ShownOnce';

/** A callback URL (with the number's token) as it is shown: once, with where it goes in Twilio. */
export function CallbackUrl({ url, title }: { url: string; title: string }) {
  return (
    <ShownOnce label="Callback URL" value={url}>
      <p>
        <strong>{title}</strong> Copy it now: it holds the number's secret token and is shown only this once. In Twilio,
        set <em>A call comes in</em> to this URL (HTTP POST) and <em>Call status changes</em> to it followed by{' '}
        <code>/status</code>.
      </p>
    </ShownOnce>
  );
}
