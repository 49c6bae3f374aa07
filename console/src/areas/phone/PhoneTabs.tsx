import { NavLink } from 'react-router';
import './phoneTabs.css';

/** The phone pages, one level below the main navigation. */
export function PhoneTabs() {
  return (
    <nav aria-label="Phone" className="filters phone-tabs">
      <NavLink to="/phone" end>
        Numbers and agents
      </NavLink>
      <NavLink to="/phone/calls">Calls</NavLink>
      <NavLink to="/phone/calendar">Booking calendar</NavLink>
    </nav>
  );
}
