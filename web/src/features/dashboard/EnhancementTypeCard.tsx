import { Link } from 'react-router-dom';
import { type EnhancementType, mainTypes, type SubType, subTypesOf, withMainType } from '../../lib/enhancement-type';

const subTypeLabels: Record<SubType, string> = {
  tops: 'Tops',
  bottoms: 'Bottoms',
  socks: 'Socks',
  jewelry: 'Jewelry',
  bags_belts: 'Bags & belts',
  accessory_headwear: 'Headwear',
  two_shoe: 'Pair of shoes',
  side_view: 'Side view',
  front_view: 'Front view',
  logo_detail: 'Logo detail',
  fabric_texture: 'Fabric texture',
  hardware_tag: 'Hardware & tags',
};

export interface EnhancementTypeCardProps {
  value: EnhancementType;
  onChange: (value: EnhancementType) => void;
  /** An active subscriber (subscriptionStatus active) may choose a sub-type; the server checks it again. */
  subscriber: boolean;
  /**
   * Advanced prompting, offered to subscribers where a generative provider is configured
   * (GET /api/images/options); absent: no instruction field.
   */
  prompting?: { value: string; onChange: (value: string) => void; maxLength: number };
}

/**
 * The dashboard's enhancement type chooser: the main type for everyone; the sub-type for active
 * subscribers, and an 'Unlock More Features' card leading to /pricing for everyone else.
 */
export function EnhancementTypeCard({ value, onChange, subscriber, prompting }: EnhancementTypeCardProps) {
  return (
    <section className="card type-chooser" aria-labelledby="type-chooser-title">
      <h2 id="type-chooser-title">Enhancement type</h2>
      <fieldset className="type-chooser__group">
        <legend className="small muted">What does your photo show?</legend>
        {mainTypes.map((t) => (
          <label key={t.type} className={`chip-radio${value.type === t.type ? ' chip-radio--active' : ''}`}>
            <input
              type="radio"
              name="main-type"
              value={t.type}
              checked={value.type === t.type}
              onChange={() => onChange(withMainType(t.type))}
            />
            {t.label}
          </label>
        ))}
      </fieldset>
      {subscriber ? (
        <fieldset className="type-chooser__group">
          <legend className="small muted">Sub-type</legend>
          {subTypesOf[value.type].map((sub) => (
            <label key={sub} className={`chip-radio${value.subType === sub ? ' chip-radio--active' : ''}`}>
              <input
                type="radio"
                name="sub-type"
                value={sub}
                checked={value.subType === sub}
                onChange={() => onChange({ type: value.type, subType: sub })}
              />
              {subTypeLabels[sub]}
            </label>
          ))}
        </fieldset>
      ) : null}
      {subscriber && prompting ? (
        <div className="field type-chooser__prompt">
          <label htmlFor="enhance-instruction">Advanced prompting (optional)</label>
          <textarea
            id="enhance-instruction"
            aria-describedby="enhance-instruction-help"
            rows={2}
            maxLength={prompting.maxLength}
            placeholder="e.g. keep the logo facing up"
            value={prompting.value}
            onChange={(e) => prompting.onChange(e.target.value)}
          />
          <span id="enhance-instruction-help" className="small muted">
            {prompting.value.length}/{prompting.maxLength} characters, sent with your next enhancement
          </span>
        </div>
      ) : null}
      {subscriber ? null : (
        <div className="type-chooser__upsell">
          <h3>Unlock More Features</h3>
          <p className="small">
            Subscribers choose the exact shot: side or front view, fabric texture, hardware and more.
          </p>
          <Link to="/pricing" className="button button--primary">
            View Plans
          </Link>
        </div>
      )}
    </section>
  );
}
