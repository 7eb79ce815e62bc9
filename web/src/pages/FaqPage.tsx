import { FaqAccordion } from '../features/content/FaqAccordion';

export default function FaqPage() {
  return (
    <div className="page page--narrow">
      <h1 className="visually-hidden">FAQ</h1>
      <FaqAccordion />
    </div>
  );
}
