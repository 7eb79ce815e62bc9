export function PhotoTip() {
  return (
    <aside className="tip" aria-label="Photo tip">
      <strong>Photo tip:</strong> for the best results, photograph clothing on a hanger, keep the full logo visible, and
      use a background colour different from the garment.
    </aside>
  );
}
