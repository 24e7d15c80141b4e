import { Image } from '@mantine/core';
import { CairnLogo } from '../../ui/CairnLogo';
import { useBranding } from './brandingStore';

interface BrandLogoProps {
  /** Height in px. */
  size?: number;
  withWordmark?: boolean;
}

/**
 * The organisation's logo on its subdomain (spec 001 section 2: 'An organisation logo may replace
 * the product logo'), otherwise Cairn's. The logo is a data URL shown only as an <img>, where an
 * SVG cannot run scripts (and the server refuses SVGs that try, R124).
 */
export function BrandLogo({ size = 32, withWordmark = false }: BrandLogoProps) {
  const branding = useBranding();
  if (!branding?.logo) return <CairnLogo size={size} withWordmark={withWordmark} />;
  return <Image src={branding.logo} alt={`${branding.name} logo`} h={withWordmark ? size * 1.25 : size} w="auto" maw={250} fit="contain" />;
}
