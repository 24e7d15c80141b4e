/**
 * Password strength by zxcvbn-ts. The dictionaries are about 1.5 MB, so they load on first use by
 * dynamic import (their own chunks): the login bundle never carries them.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjustScore, type PasswordScore } from './password';

let factory: Promise<ZxcvbnFactory> | undefined;

async function createFactory(): Promise<ZxcvbnFactory> {
  const [core, common, en] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  // Options are set once here: building the ranked dictionaries is the expensive part.
  return new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
    useLevenshteinDistance: true,
  });
}

/** Starts loading the estimator (call it when a password form opens). */
export function preloadPasswordStrength(): Promise<ZxcvbnFactory> {
  factory ??= createFactory().catch((error: unknown) => {
    // A failed chunk load (offline) must not stick: the next call tries again.
    factory = undefined;
    throw error;
  });
  return factory;
}

/**
 * The adjusted 0-4 score of `password` (see `adjustScore`). `userInputs` (e.g. the e-mail) count
 * as known words, so a password made of them scores low.
 */
export async function scorePassword(password: string, userInputs: string[] = []): Promise<PasswordScore> {
  const zxcvbn = await preloadPasswordStrength();
  return adjustScore(zxcvbn.check(password, userInputs).score, password);
}

/** The e-mail and its parts, as zxcvbn user inputs: a password built from them scores low. */
export function emailUserInputs(email: string): string[] {
  const normalized = email.trim().toLowerCase();
  const local = normalized.split('@')[0] ?? '';
  if (!local) return [];
  const parts = local.split(/[^a-z0-9]+/).filter((part) => part.length >= 3);
  return [...new Set([normalized, local, local.replace(/[^a-z0-9]/g, ''), ...parts])];
}
