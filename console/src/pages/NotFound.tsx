import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no such page. <Link to="/inbox">Go to the inbox</Link>.
      </p>
    </section>
  );
}
