import { describe, expect, it } from 'vitest';
import { tourVaultKind, vaultTourSteps } from './vaultTourSteps';

const ids = (vault: { isPublic: boolean; isCloud: boolean }) => vaultTourSteps(vault).map((s) => s.id);

describe('vault room onboarding tour (spec 000 section 2)', () => {
  it('has 8 steps for private vaults, cloud or permanent', () => {
    expect(ids({ isPublic: false, isCloud: true })).toEqual(['welcome', 'storage', 'privacy', 'add', 'files', 'menu', 'hidden', 'uploads']);
    expect(ids({ isPublic: false, isCloud: false })).toHaveLength(8);
    expect(vaultTourSteps({ isPublic: false, isCloud: true }).map((s) => s.title)).not.toContain('Mint Atomic NFTs');
  });

  it('has 8 steps for public permanent vaults, one of them Mint Atomic NFTs', () => {
    const steps = vaultTourSteps({ isPublic: true, isCloud: false });
    expect(steps).toHaveLength(8);
    expect(steps.map((s) => s.title)).toContain('Mint Atomic NFTs');
    expect(steps.map((s) => s.id)).not.toContain('privacy');
  });

  it('has 7 steps for public cloud vaults', () => {
    expect(ids({ isPublic: true, isCloud: true })).toEqual(['welcome', 'storage', 'add', 'files', 'menu', 'hidden', 'uploads']);
  });

  it('names the storage the vault uses and mentions zip unpacking, which every vault has', () => {
    const title = (vault: { isPublic: boolean; isCloud: boolean }, id: string) => vaultTourSteps(vault).find((s) => s.id === id);
    expect(title({ isPublic: false, isCloud: true }, 'storage')?.title).toBe('Cloud storage');
    expect(title({ isPublic: false, isCloud: false }, 'storage')?.title).toBe('Permanent storage');
    expect(title({ isPublic: true, isCloud: true }, 'add')?.text).toContain('.zip');
    expect(title({ isPublic: false, isCloud: true }, 'add')?.text).toContain('.zip');
  });

  it('points every step at a control, with a fallback where the phone layout hides one', () => {
    for (const vault of [{ isPublic: false, isCloud: true }, { isPublic: true, isCloud: false }, { isPublic: true, isCloud: true }]) {
      const steps = vaultTourSteps(vault);
      expect(new Set(steps.map((s) => s.id)).size).toBe(steps.length);
      // Badges and the Hidden files link are hidden below 668 px: each has a target that is not.
      for (const step of steps.filter((s) => ['storage', 'privacy', 'hidden'].includes(s.id))) expect(step.targets.length).toBeGreaterThan(1);
    }
  });

  it('classifies vaults', () => {
    expect(tourVaultKind({ isPublic: false, isCloud: false })).toBe('private');
    expect(tourVaultKind({ isPublic: true, isCloud: false })).toBe('publicPermanent');
    expect(tourVaultKind({ isPublic: true, isCloud: true })).toBe('publicCloud');
  });
});
