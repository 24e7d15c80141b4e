import type { ReactNode, SVGProps } from 'react';

export interface IconProps extends Omit<SVGProps<SVGSVGElement>, 'children'> {
  size?: number;
}

/** Outline icons (24-unit grid, stroke = currentColor), decorative unless given an aria-label. */
function makeIcon(name: string, body: ReactNode) {
  function Icon({ size = 20, ...props }: IconProps) {
    const labelled = props['aria-label'] !== undefined;
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.75}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden={labelled ? undefined : true}
        role={labelled ? 'img' : undefined}
        focusable="false"
        {...props}
      >
        {body}
      </svg>
    );
  }
  Icon.displayName = name;
  return Icon;
}

export const IconVaults = makeIcon(
  'IconVaults',
  <>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="12" cy="12" r="3" />
    <path d="M12 9V7M12 17v-2M15 12h2M7 12h2" />
  </>,
);
export const IconStorage = makeIcon(
  'IconStorage',
  <>
    <ellipse cx="12" cy="6" rx="8" ry="3" />
    <path d="M4 6v6c0 1.66 3.58 3 8 3s8-1.34 8-3V6" />
    <path d="M4 12v6c0 1.66 3.58 3 8 3s8-1.34 8-3v-6" />
  </>,
);
export const IconRewards = makeIcon(
  'IconRewards',
  <>
    <rect x="3" y="8" width="18" height="4" rx="1" />
    <path d="M12 8v13M19 12v7a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2v-7" />
    <path d="M7.5 8a2.5 2.5 0 0 1 0-5C11 3 12 8 12 8s1-5 4.5-5a2.5 2.5 0 0 1 0 5" />
  </>,
);
export const IconBell = makeIcon(
  'IconBell',
  <>
    <path d="M10 5a2 2 0 1 1 4 0 7 7 0 0 1 4 6v3a4 4 0 0 0 2 3H4a4 4 0 0 0 2-3v-3a7 7 0 0 1 4-6" />
    <path d="M9 17v1a3 3 0 0 0 6 0v-1" />
  </>,
);
export const IconSearch = makeIcon(
  'IconSearch',
  <>
    <circle cx="10" cy="10" r="7" />
    <path d="m21 21-6-6" />
  </>,
);
export const IconUser = makeIcon(
  'IconUser',
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M6 21v-2a4 4 0 0 1 4-4h4a4 4 0 0 1 4 4v2" />
  </>,
);
export const IconChevronDown = makeIcon('IconChevronDown', <path d="m6 9 6 6 6-6" />);
export const IconPlus = makeIcon('IconPlus', <path d="M12 5v14M5 12h14" />);
export const IconLogout = makeIcon(
  'IconLogout',
  <>
    <path d="M14 8V6a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h7a2 2 0 0 0 2-2v-2" />
    <path d="M9 12h12l-3-3M18 15l3-3" />
  </>,
);
export const IconAlert = makeIcon(
  'IconAlert',
  <>
    <path d="M12 9v4M12 17h.01" />
    <path d="M10.24 3.96 2.3 17.5A2 2 0 0 0 4.03 20.5h15.94a2 2 0 0 0 1.73-3L13.76 3.96a2 2 0 0 0-3.52 0z" />
  </>,
);
export const IconLock = makeIcon(
  'IconLock',
  <>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 1 1 8 0v4" />
  </>,
);
export const IconWorld = makeIcon(
  'IconWorld',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M3.6 9h16.8M3.6 15h16.8M11.5 3a17 17 0 0 0 0 18M12.5 3a17 17 0 0 1 0 18" />
  </>,
);
export const IconCheck = makeIcon('IconCheck', <path d="m5 12 5 5L20 7" />);
export const IconCloud = makeIcon(
  'IconCloud',
  <path d="M7 18a4.6 4.4 0 0 1 0-9 5 4.5 0 0 1 11 2h1a3.5 3.5 0 0 1 0 7H7" />,
);
export const IconArchive = makeIcon(
  'IconArchive',
  <>
    <rect x="3" y="4" width="18" height="4" rx="1" />
    <path d="M5 8v10a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8M10 12h4" />
  </>,
);
export const IconInfinity = makeIcon(
  'IconInfinity',
  <path d="M9.8 8.8a4.5 4.5 0 1 0 0 6.4L12 12l2.2-3.2a4.5 4.5 0 1 1 0 6.4L12 12z" />,
);
export const IconDots = makeIcon(
  'IconDots',
  <>
    <circle cx="5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="19" cy="12" r="1" />
  </>,
);
export const IconFolder = makeIcon('IconFolder', <path d="M4 5h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z" />);
export const IconFile = makeIcon(
  'IconFile',
  <>
    <path d="M14 3v4a1 1 0 0 0 1 1h4" />
    <path d="M17 21H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h7l5 5v11a2 2 0 0 1-2 2z" />
  </>,
);
export const IconArrowLeft = makeIcon('IconArrowLeft', <path d="M19 12H5M11 18l-6-6 6-6" />);
export const IconChevronRight = makeIcon('IconChevronRight', <path d="m9 6 6 6-6 6" />);
export const IconUpload = makeIcon('IconUpload', <path d="M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2M7 9l5-5 5 5M12 4v12" />);
export const IconFileZip = makeIcon(
  'IconFileZip',
  <>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5M11 5h1M11 8h1M11 11h1M10.5 14h2v3h-2z" />
  </>,
);
export const IconDownload = makeIcon('IconDownload', <path d="M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2M7 11l5 5 5-5M12 4v12" />);
export const IconX = makeIcon('IconX', <path d="M18 6 6 18M6 6l12 12" />);
export const IconEyeOff = makeIcon(
  'IconEyeOff',
  <path d="M3 3l18 18M10.6 10.6a2 2 0 0 0 2.8 2.8M9.4 5.2A9.5 9.5 0 0 1 12 5c4 0 7.3 2.3 9 7a12 12 0 0 1-2.2 3.4M6.6 6.6C4.9 7.8 3.7 9.6 3 12c1.7 4.7 5 7 9 7 1.6 0 3.1-.4 4.4-1.1" />,
);
export const IconInfo = makeIcon(
  'IconInfo',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 8h.01M11 12h1v4h1" />
  </>,
);
export const IconMessage = makeIcon('IconMessage', <path d="M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9l-5 4V6a1 1 0 0 1 1-1z" />);
export const IconMoodSmile = makeIcon(
  'IconMoodSmile',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M9 10h.01M15 10h.01M9.5 15a3.5 3.5 0 0 0 5 0" />
  </>,
);
export const IconSend = makeIcon('IconSend', <path d="M10 14 21 3M21 3l-7 18-4-7-7-4 18-7z" />);
export const IconFilter = makeIcon('IconFilter', <path d="M4 5h16l-6 8v5l-4 2v-7z" />);
