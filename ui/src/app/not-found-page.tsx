/** The page for an address that matches no route. */
import { Link } from 'wouter';
import { PageHeader } from '../components/common/page-header';

export default function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" description="There is no page at this address." />
      <p>
        <Link href="/runs">Go to the runs</Link>
      </p>
    </>
  );
}
