// The few icons the app draws, inline so they cost no request.
type IconProps = { size?: number };

const svg = (size: number, path: string) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    aria-hidden="true"
  >
    <path d={path} strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

export const DashboardIcon = ({ size = 20 }: IconProps) =>
  svg(size, 'M3 3h7v9H3zM14 3h7v5h-7zM14 12h7v9h-7zM3 16h7v5H3z');
export const AccountIcon = ({ size = 20 }: IconProps) =>
  svg(size, 'M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z');
export const TokenIcon = ({ size = 16 }: IconProps) =>
  svg(size, 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM12 6v12M8 10h8M8 14h8');
export const UploadIcon = ({ size = 32 }: IconProps) =>
  svg(size, 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M17 8l-5-5-5 5M12 3v12');
export const DownloadIcon = ({ size = 18 }: IconProps) =>
  svg(size, 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3');
export const LockIcon = ({ size = 28 }: IconProps) => svg(size, 'M5 11h14v10H5zM8 11V7a4 4 0 0 1 8 0v4');

export function Logo() {
  return (
    <span className="logo">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--accent)" />
        <path d="M9 10h14M9 16h10M9 22h6" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span className="logo__name">Flatlay</span>
    </span>
  );
}
