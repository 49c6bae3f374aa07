import { NavLink } from 'react-router';
import { useSession } from '../../session';
import './finance.css';

/** The finance pages' own navigation: what the role may use (importing needs `finance:write`). */
export function FinanceTabs() {
  const { can } = useSession();
  const tabs = [
    { to: '/finance', label: 'Summary', show: true },
    { to: '/finance/transactions', label: 'Transactions', show: true },
    { to: '/finance/import', label: 'Import', show: can('finance:write') },
    { to: '/finance/rules', label: 'Categories and rules', show: true },
    { to: '/finance/reports', label: 'Export and reports', show: true },
  ];
  return (
    <nav aria-label="Finance" className="subnav">
      <ul>
        {tabs
          .filter((t) => t.show)
          .map((t) => (
            <li key={t.to}>
              <NavLink to={t.to} end>
                {t.label}
              </NavLink>
            </li>
          ))}
      </ul>
    </nav>
  );
}
