import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { defaultEnhancementType, type MainType, mainTypes } from '../../lib/enhancement-type';

export interface TypeChooserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The chosen main type; Skip for Now answers the default (clothing). */
  onChoose: (type: MainType) => void;
  initial?: MainType;
}

/** Asks what the photo shows, so the engine composes it right. Focus stays inside while open. */
export function TypeChooserDialog({ open, onOpenChange, onChoose, initial }: TypeChooserDialogProps) {
  const [choice, setChoice] = useState<MainType>(initial ?? defaultEnhancementType.type);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>What are you enhancing?</Dialog.Title>
          <Dialog.Description className="muted">Pick the kind of product in your photo.</Dialog.Description>
          <div className="type-grid" role="radiogroup" aria-label="Enhancement type">
            {mainTypes.map((t) => (
              // biome-ignore lint/a11y/useSemanticElements: a card-sized radio needs a button, and role radio keeps its meaning
              <button
                key={t.type}
                type="button"
                role="radio"
                aria-checked={choice === t.type}
                className={`type-card${choice === t.type ? ' type-card--active' : ''}`}
                onClick={() => setChoice(t.type)}
              >
                <span className="type-card__label">{t.label}</span>
                <span className="small muted">{t.hint}</span>
              </button>
            ))}
          </div>
          <div className="dialog__actions">
            <button
              type="button"
              className="button button--ghost"
              onClick={() => onChoose(defaultEnhancementType.type)}
            >
              Skip for Now
            </button>
            <button type="button" className="button button--primary" onClick={() => onChoose(choice)}>
              Continue
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
