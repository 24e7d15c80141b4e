import { describe, expect, it } from 'vitest';
import { descriptionRemaining, nextStep, parseWizardChoices, previousStep, validateVaultTitle } from './vaultWizardRules';

describe('vault wizard (spec 002 section 2)', () => {
  it('parses only known choices', () => {
    expect(parseWizardChoices({ storage: 'cloud', privacy: 'x', from: 'setup' })).toEqual({ storage: 'cloud', privacy: undefined, from: 'setup' });
  });
  it('walks the steps', () => {
    expect(nextStep('storage', {})).toBeNull();
    expect(nextStep('storage', { storage: 'cloud' })).toBe('privacy');
    expect(nextStep('privacy', { privacy: 'public' })).toBe('metadata');
    expect(previousStep('metadata', { from: 'setup' })).toBe('setup');
    expect(previousStep('metadata', {})).toBe('privacy');
    expect(previousStep('storage', {})).toBe('setup');
  });
  it('validates title and counts description', () => {
    expect(validateVaultTitle('  ')).not.toBeNull();
    expect(validateVaultTitle('a'.repeat(151))).toBe('Title exceeds 150 characters.');
    expect(validateVaultTitle('a'.repeat(150))).toBeNull();
    expect(descriptionRemaining('a'.repeat(301))).toBe(-1);
  });
});
