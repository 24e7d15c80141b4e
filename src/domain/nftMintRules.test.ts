import { describe, expect, it } from 'vitest';
import { DEFAULT_UDL, Udl, udlTags } from '../protocol/nfts';
import {
  ADDRESS_FORMAT_ERROR,
  addTopic,
  chosenUdl,
  collectionMetadataOf,
  DEFAULT_UDL_FORM,
  EMPTY_METADATA_FORM,
  fileStepState,
  FRACTION_ERROR,
  grantTypesOf,
  isFileNameTooLong,
  metadataErrors,
  metadataOf,
  mintSteps,
  nameWithoutExtension,
  NUMBER_ERROR,
  setFractional,
  setOwner,
  stepAfterUdlChoice,
  udlErrors,
  udlOf,
} from './nftMintRules';

const WALLET = 'a'.repeat(40) + '_-9';
const OTHER = 'B'.repeat(43);

describe('metadata form', () => {
  const valid = { ...EMPTY_METADATA_FORM, name: 'Sunset', owner: WALLET, creator: WALLET };

  it('starts with the type other and needs a name, an owner and a creator', () => {
    expect(EMPTY_METADATA_FORM.types).toEqual(['other']);
    const errors = metadataErrors(EMPTY_METADATA_FORM);
    expect(errors.name).toBeTruthy();
    expect(errors.owner).toBe(ADDRESS_FORMAT_ERROR);
    expect(errors.creator).toBe(ADDRESS_FORMAT_ERROR);
    expect(metadataOf(EMPTY_METADATA_FORM)).toBeNull();
  });

  it('takes names up to 150 and descriptions up to 300 characters', () => {
    expect(metadataErrors({ ...valid, name: 'x'.repeat(150), description: 'y'.repeat(300) })).toEqual({});
    expect(metadataErrors({ ...valid, name: 'x'.repeat(151) }).name).toBeTruthy();
    expect(metadataErrors({ ...valid, description: 'y'.repeat(301) }).description).toBeTruthy();
    expect(metadataErrors({ ...valid, name: '   ' }).name).toBeTruthy();
  });

  it('wants an owner of exactly 43 letters, digits, underscores or hyphens', () => {
    expect(metadataErrors({ ...valid, owner: WALLET.slice(1) }).owner).toBe(ADDRESS_FORMAT_ERROR);
    expect(metadataErrors({ ...valid, owner: `${WALLET}a` }).owner).toBe(ADDRESS_FORMAT_ERROR);
    expect(metadataErrors({ ...valid, owner: `${WALLET.slice(1)}!` }).owner).toBe(ADDRESS_FORMAT_ERROR);
  });

  it('setting the owner sets the creator and the licence payment address', () => {
    const { form, udl } = setOwner(EMPTY_METADATA_FORM, DEFAULT_UDL_FORM, OTHER);
    expect(form.owner).toBe(OTHER);
    expect(form.creator).toBe(OTHER);
    expect(udl.paymentAddress).toBe(OTHER);
  });

  it('fractional on sets 100 parts, off clears them; parts are 2 to 100', () => {
    const on = setFractional(valid, true);
    expect(on.fractionParts).toBe('100');
    expect(metadataOf(on)?.fractionParts).toBe(100);
    expect(setFractional(on, false).fractionParts).toBe('');
    expect(metadataOf(setFractional(on, false))?.fractionParts).toBeNull();
    for (const bad of ['1', '101', '2.5', 'ten', '']) expect(metadataErrors({ ...on, fractionParts: bad }).fractionParts).toBe(FRACTION_ERROR);
    expect(metadataOf({ ...on, fractionParts: '2' })?.fractionParts).toBe(2);
  });

  it('gives the metadata the mint signs, and a collection NFT takes its own name', () => {
    const form = addTopic(addTopic({ ...valid, types: ['image', 'image', 'meme'], description: 'Warm' }, ' sky '), 'sky');
    expect(form.topics).toEqual(['sky']);
    expect(metadataOf(form)).toEqual({ name: 'Sunset', description: 'Warm', topics: ['sky'], types: ['image', 'meme'], owner: WALLET, creator: WALLET, fractionParts: null });
    expect(metadataOf(form, 'photo-1')?.name).toBe('photo-1');
    expect(collectionMetadataOf(form)).not.toHaveProperty('fractionParts');
    expect(addTopic(form, 'a:b').topics).toEqual(['sky']);
    expect(metadataErrors({ ...form, types: [] }).types).toBeTruthy();
  });
});

describe('UDL choice and custom form', () => {
  it('default is the standard licence (License tag alone), none clears it, custom goes through its form', () => {
    expect(chosenUdl('default', DEFAULT_UDL_FORM)).toEqual({ udl: DEFAULT_UDL, isValid: true });
    expect(udlTags(chosenUdl('default', DEFAULT_UDL_FORM).udl)).toHaveLength(1);
    expect(chosenUdl('none', DEFAULT_UDL_FORM)).toEqual({ udl: null, isValid: true });
    expect(stepAfterUdlChoice('custom')).toBe('udl-custom');
    expect(stepAfterUdlChoice('default')).toBe('ucm');
    expect(stepAfterUdlChoice('none')).toBe('ucm');
  });

  it('offers the option lists of spec 002 section 9', () => {
    expect(grantTypesOf('derivation')).toEqual(['None', 'Allowed-With-Credit', 'Allowed-With-Indication', 'Allowed-With-License-Passthrough', 'Allowed-With-RevenueShare', 'Allowed-With-Fee']);
    expect(grantTypesOf('commercialUse')).toEqual(['None', 'Allowed', 'Allowed-With-Credit', 'Allowed-With-RevenueShare', 'Allowed-With-Fee']);
    expect(grantTypesOf('dataModelTraining')).toEqual(['None', 'Allowed', 'Allowed-With-Fee']);
  });

  it('the untouched custom form is the default licence in U, indefinite', () => {
    expect(udlOf(DEFAULT_UDL_FORM)).toEqual(DEFAULT_UDL);
    expect(DEFAULT_UDL_FORM.currency).toBe('U');
  });

  it('a licence fee is at least 1, else "Enter a number" and no licence', () => {
    for (const bad of ['0', '0.5', '', 'abc']) {
      const form = { ...DEFAULT_UDL_FORM, hasLicenseFee: true, licenseFee: bad };
      expect(udlErrors(form).licenseFee).toBe(NUMBER_ERROR);
      expect(udlOf(form)).toBeNull();
    }
    expect(udlOf({ ...DEFAULT_UDL_FORM, hasLicenseFee: true, licenseFee: '5' })?.licenseFee).toEqual({ type: 'One-Time', value: 5 });
  });

  it('Allowed-With-Fee needs a fee above 0 and Allowed-With-RevenueShare a share from 1 to 100', () => {
    const fee = (value: string) => ({ ...DEFAULT_UDL_FORM, derivation: { type: 'Allowed-With-Fee' as const, value, feeType: 'Monthly' as const } });
    expect(udlErrors(fee('0')).derivation).toBe(NUMBER_ERROR);
    expect(udlErrors(fee('')).derivation).toBe(NUMBER_ERROR);
    expect(udlOf(fee('3'))?.derivation).toEqual({ type: 'Allowed-With-Fee', fee: { type: 'Monthly', value: 3 } });
    const share = (value: string) => ({ ...DEFAULT_UDL_FORM, commercialUse: { type: 'Allowed-With-RevenueShare' as const, value, feeType: 'One-Time' as const } });
    expect(udlErrors(share('0')).commercialUse).toBe(NUMBER_ERROR);
    expect(udlErrors(share('101')).commercialUse).toBe(NUMBER_ERROR);
    expect(udlOf(share('25'))?.commercialUse).toEqual({ type: 'Allowed-With-RevenueShare', value: 25 });
  });

  it('a full custom licence parses as a Udl and gives the R138 tags', () => {
    const udl = udlOf({
      ...DEFAULT_UDL_FORM,
      hasLicenseFee: true,
      licenseFee: '5',
      derivation: { type: 'Allowed-With-Credit', value: '', feeType: 'One-Time' },
      commercialUse: { type: 'Allowed-With-RevenueShare', value: '25', feeType: 'One-Time' },
      dataModelTraining: { type: 'Allowed-With-Fee', value: '3', feeType: 'Monthly' },
      unknownUsageRights: 'Excluded',
      currency: 'AR',
      expires: '10',
      paymentAddress: WALLET,
      paymentMode: 'Global-Distribution',
    });
    expect(Udl.safeParse(udl).success).toBe(true);
    expect(udlTags(udl).map((t) => `${t.name}=${t.value}`)).toEqual([
      'License=IVjAM1C3x3GFdc3t9EqMnbtGnpgTuJbaiYZa1lk09_8',
      'Access-Fee=One-Time-5',
      'Derivation=Allowed-With-Credit',
      'Commercial-Use=Allowed-With-RevenueShare-25%',
      'Data-Model-Training=Allowed-With-Fee-Monthly-3',
      'Unknown-Usage-Rights=Excluded',
      'Currency=AR',
      'Expires=10',
      `Payment-Address=${WALLET}`,
      'Payment-Mode=Global-Distribution',
    ]);
  });

  it('checks the duration and the payment address', () => {
    expect(udlErrors({ ...DEFAULT_UDL_FORM, expires: '0' }).expires).toBe(NUMBER_ERROR);
    expect(udlOf({ ...DEFAULT_UDL_FORM, expires: '' })?.expires).toBeNull();
    expect(udlErrors({ ...DEFAULT_UDL_FORM, paymentAddress: 'short' }).paymentAddress).toBe(ADDRESS_FORMAT_ERROR);
    expect(udlErrors({ ...DEFAULT_UDL_FORM, dataModelTraining: { type: 'Allowed-With-Credit', value: '', feeType: 'One-Time' } }).dataModelTraining).toBeTruthy();
  });
});

describe('file step', () => {
  const file = (name: string, size = 10) => ({ name, size });

  it('measures a name without its extension (NAME_TOO_LONG at 151)', () => {
    expect(nameWithoutExtension('photo.final.png')).toBe('photo.final');
    expect(nameWithoutExtension('.env')).toBe('.env');
    expect(isFileNameTooLong(`${'x'.repeat(150)}.jpeg`)).toBe(false);
    expect(isFileNameTooLong(`${'x'.repeat(151)}.jpeg`)).toBe(true);
    const state = fileStepState({ mintType: 'single', files: [file(`${'x'.repeat(151)}.png`)], storageAvailable: 1000 });
    expect(state.tooLong).toHaveLength(1);
    expect(state.canContinue).toBe(false);
  });

  it('a collection needs at least one file, a single NFT exactly one', () => {
    expect(fileStepState({ mintType: 'collection', files: [], storageAvailable: 1000 }).canContinue).toBe(false);
    expect(fileStepState({ mintType: 'collection', files: [file('a.png'), file('b.png')], storageAvailable: 1000 }).canContinue).toBe(true);
    expect(fileStepState({ mintType: 'single', files: [file('a.png'), file('b.png')], storageAvailable: 1000 }).canContinue).toBe(false);
    expect(fileStepState({ mintType: 'single', files: [file('a.png')], storageAvailable: 1000 }).canContinue).toBe(true);
  });

  it('files, thumbnail and banner together must fit the storage available', () => {
    const input = { mintType: 'collection' as const, files: [file('a.png', 500)], thumbnail: { size: 200 }, banner: { size: 300 } };
    expect(fileStepState({ ...input, storageAvailable: 1000 }).isOverStorage).toBe(false);
    const over = fileStepState({ ...input, storageAvailable: 999 });
    expect(over.isOverStorage).toBe(true);
    expect(over.canContinue).toBe(false);
  });

  it('orders the wizard steps by mint type and UDL choice', () => {
    expect(mintSteps('single', 'default')).toEqual(['metadata', 'udl', 'ucm', 'file']);
    expect(mintSteps('collection', 'custom')).toEqual(['metadata', 'udl', 'udl-custom', 'ucm', 'display', 'file']);
  });
});
