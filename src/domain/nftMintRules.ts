/**
 * The mint wizard's forms (spec 002 sections 2, 4, 5, 9; docs/SYNC_SPEC.md R136-R141): the
 * metadata form, the custom UDL form and the file step, as pure rules. Each form keeps what the
 * user typed (text, so a half-typed number stays on screen) and answers its errors and, when it
 * has none, the protocol value (`NftMetadata`, `Udl`) the mint signs.
 */
import {
  DEFAULT_UDL,
  NFT_ASSET_TYPES,
  NFT_LIMITS,
  NftCollectionMetadata,
  NftMetadata,
  type NftAssetType,
  type NftFeeType,
  Udl,
  UDL_DEFAULT_CURRENCY,
  UDL_GRANT_TYPES,
  type UdlGrant,
  type UdlGrantType,
  type UdlPaymentMode,
  type UdlTerm,
} from '../protocol/nfts';

export const MINT_TYPES = ['single', 'collection'] as const;
export type MintType = (typeof MINT_TYPES)[number];

export function isMintType(value: unknown): value is MintType {
  return value === 'single' || value === 'collection';
}

// --- texts (spec 002 sections 4, 5, 8) -----------------------------------------------------------

export const ADDRESS_FORMAT_ERROR = 'This must match the format for an Arweave wallet address.';
export const FRACTION_ERROR = 'Enter a number from 2 to 100.';
export const NUMBER_ERROR = 'Enter a number';
export const NAME_TOO_LONG_MESSAGE = 'File name should not exceed 150 characters.';
export const FINALISING_LABEL = 'Finalising NFT collection...';
export const NFT_MINTED_MESSAGE = 'Atomic NFT minted';
export const NFT_COLLECTION_MINTED_MESSAGE = 'NFT collection minted';

const ADDRESS_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function isArweaveAddress(value: string): boolean {
  return ADDRESS_PATTERN.test(value);
}

// --- metadata form ---------------------------------------------------------------------------------

export interface MetadataForm {
  name: string;
  description: string;
  owner: string;
  creator: string;
  types: NftAssetType[];
  topics: string[];
  isFractional: boolean;
  /** The parts as typed; '' while fractional is off. */
  fractionParts: string;
}

export const EMPTY_METADATA_FORM: MetadataForm = {
  name: '',
  description: '',
  owner: '',
  creator: '',
  types: ['other'],
  topics: [],
  isFractional: false,
  fractionParts: '',
};

export type MetadataErrors = Partial<Record<'name' | 'description' | 'owner' | 'creator' | 'fractionParts' | 'types' | 'topics', string>>;

/** Turning fractional on sets the parts to 100; turning it off clears them (spec 002 section 4). */
export function setFractional(form: MetadataForm, isFractional: boolean): MetadataForm {
  return { ...form, isFractional, fractionParts: isFractional ? String(NFT_LIMITS.FRACTION_DEFAULT) : '' };
}

/**
 * Setting the owner sets the creator too, and the custom licence's payment address (spec 002
 * section 4): the three start as the same wallet, and the creator or payment address can be
 * changed afterwards.
 */
export function setOwner(form: MetadataForm, udl: UdlForm, owner: string): { form: MetadataForm; udl: UdlForm } {
  return { form: { ...form, owner, creator: owner }, udl: { ...udl, paymentAddress: owner } };
}

/** Parses a whole number typed in a field; null for anything else. */
function parseWhole(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** Parses a positive decimal typed in a field; null for anything else. */
function parseDecimal(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  return Number(trimmed);
}

export function metadataErrors(form: MetadataForm): MetadataErrors {
  const errors: MetadataErrors = {};
  if (!form.name.trim()) errors.name = 'Name is required';
  else if (form.name.length > NFT_LIMITS.NAME_MAX) errors.name = `Name exceeds ${NFT_LIMITS.NAME_MAX} characters.`;
  if (form.description.length > NFT_LIMITS.DESCRIPTION_MAX) errors.description = `Description exceeds ${NFT_LIMITS.DESCRIPTION_MAX} characters.`;
  if (!isArweaveAddress(form.owner)) errors.owner = ADDRESS_FORMAT_ERROR;
  if (!isArweaveAddress(form.creator)) errors.creator = ADDRESS_FORMAT_ERROR;
  if (form.isFractional) {
    const parts = parseWhole(form.fractionParts);
    if (parts === null || parts < NFT_LIMITS.FRACTION_MIN || parts > NFT_LIMITS.FRACTION_MAX) errors.fractionParts = FRACTION_ERROR;
  }
  if (form.types.length === 0) errors.types = 'Choose at least one type';
  if (form.topics.length > NFT_LIMITS.TOPICS_MAX) errors.topics = `At most ${NFT_LIMITS.TOPICS_MAX} topics`;
  else if (form.topics.some((topic) => !topic.trim() || topic.length > NFT_LIMITS.TOPIC_MAX || topic.includes(':'))) {
    errors.topics = `A topic has 1 to ${NFT_LIMITS.TOPIC_MAX} characters and no colon`;
  }
  return errors;
}

/** The NFT metadata the form describes (for a collection's NFT: named `name`), or null while invalid. */
export function metadataOf(form: MetadataForm, name = form.name): NftMetadata | null {
  if (Object.keys(metadataErrors(form)).length) return null;
  const parsed = NftMetadata.safeParse({
    name,
    description: form.description,
    topics: form.topics.map((topic) => topic.trim()),
    types: [...new Set(form.types)],
    owner: form.owner,
    creator: form.creator,
    fractionParts: form.isFractional ? parseWhole(form.fractionParts) : null,
  });
  return parsed.success ? parsed.data : null;
}

/** A collection's own metadata (no fractions: each NFT carries its own). */
export function collectionMetadataOf(form: MetadataForm): NftCollectionMetadata | null {
  const metadata = metadataOf(form);
  if (!metadata) return null;
  const { fractionParts: _parts, ...rest } = metadata;
  const parsed = NftCollectionMetadata.safeParse(rest);
  return parsed.success ? parsed.data : null;
}

/** Adds a topic (trimmed, once, within the limits); the form unchanged otherwise. */
export function addTopic(form: MetadataForm, topic: string): MetadataForm {
  const value = topic.trim();
  if (!value || value.length > NFT_LIMITS.TOPIC_MAX || value.includes(':')) return form;
  if (form.topics.includes(value) || form.topics.length >= NFT_LIMITS.TOPICS_MAX) return form;
  return { ...form, topics: [...form.topics, value] };
}

export const ASSET_TYPE_OPTIONS: readonly NftAssetType[] = NFT_ASSET_TYPES;

// --- UDL choice and custom form ----------------------------------------------------------------

/** The UDL choice screen: default (the standard licence), none (cleared), custom. */
export const UDL_CHOICES = ['default', 'none', 'custom'] as const;
export type UdlChoice = (typeof UDL_CHOICES)[number];

export const UDL_CHOICE_LABELS: Record<UdlChoice, string> = {
  default: 'Default UDL settings',
  none: 'Remove all UDL settings',
  custom: 'Customize UDL settings',
};

export interface GrantForm {
  type: UdlGrantType;
  /** Revenue share percentage or fee value, as typed. */
  value: string;
  feeType: NftFeeType;
}

export interface UdlForm {
  /** The access fee: off (free) or its value as typed. */
  hasLicenseFee: boolean;
  licenseFee: string;
  licenseFeeType: NftFeeType;
  derivation: GrantForm;
  commercialUse: GrantForm;
  dataModelTraining: GrantForm;
  unknownUsageRights: 'Included' | 'Excluded';
  currency: string;
  /** Years as typed; '' means indefinite. */
  expires: string;
  paymentAddress: string;
  paymentMode: UdlPaymentMode | null;
}

const NO_GRANT: GrantForm = { type: 'None', value: '', feeType: 'One-Time' };

export const DEFAULT_UDL_FORM: UdlForm = {
  hasLicenseFee: false,
  licenseFee: '',
  licenseFeeType: 'One-Time',
  derivation: NO_GRANT,
  commercialUse: NO_GRANT,
  dataModelTraining: NO_GRANT,
  unknownUsageRights: 'Included',
  currency: UDL_DEFAULT_CURRENCY,
  expires: '',
  paymentAddress: '',
  paymentMode: null,
};

export const UDL_TERMS = Object.keys(UDL_GRANT_TYPES) as UdlTerm[];

/** The grant types offered for `term` (spec 002 section 9). */
export function grantTypesOf(term: UdlTerm): readonly UdlGrantType[] {
  return UDL_GRANT_TYPES[term];
}

export type UdlErrors = Partial<Record<'licenseFee' | UdlTerm | 'currency' | 'expires' | 'paymentAddress', string>>;

function grantOf(form: GrantForm): UdlGrant | string {
  switch (form.type) {
    case 'Allowed-With-RevenueShare': {
      const value = parseDecimal(form.value);
      return value === null || value <= 0 || value > 100 ? NUMBER_ERROR : { type: form.type, value };
    }
    case 'Allowed-With-Fee': {
      const value = parseDecimal(form.value);
      return value === null || value <= 0 || value > NFT_LIMITS.FEE_MAX ? NUMBER_ERROR : { type: form.type, fee: { type: form.feeType, value } };
    }
    default:
      return { type: form.type } as UdlGrant;
  }
}

export function udlErrors(form: UdlForm): UdlErrors {
  const errors: UdlErrors = {};
  if (form.hasLicenseFee) {
    const fee = parseDecimal(form.licenseFee);
    if (fee === null || fee < 1 || fee > NFT_LIMITS.FEE_MAX) errors.licenseFee = NUMBER_ERROR;
  }
  for (const term of UDL_TERMS) {
    if (!(grantTypesOf(term) as readonly string[]).includes(form[term].type)) errors[term] = 'Not offered';
    else {
      const grant = grantOf(form[term]);
      if (typeof grant === 'string') errors[term] = grant;
    }
  }
  const currency = form.currency.trim();
  if (!currency || currency.length > NFT_LIMITS.CURRENCY_MAX || !/^[A-Za-z0-9$_-]+$/.test(currency)) errors.currency = 'Enter a currency';
  if (form.expires.trim()) {
    const years = parseWhole(form.expires);
    if (years === null || years < 1 || years > NFT_LIMITS.EXPIRES_MAX) errors.expires = NUMBER_ERROR;
  }
  if (form.paymentAddress && !isArweaveAddress(form.paymentAddress)) errors.paymentAddress = ADDRESS_FORMAT_ERROR;
  return errors;
}

/** The licence the custom form describes, or null while a field is invalid (Next stays disabled). */
export function udlOf(form: UdlForm): Udl | null {
  if (Object.keys(udlErrors(form)).length) return null;
  const grant = (term: UdlTerm) => grantOf(form[term]) as UdlGrant;
  const parsed = Udl.safeParse({
    licenseFee: form.hasLicenseFee ? { type: form.licenseFeeType, value: parseDecimal(form.licenseFee) } : null,
    derivation: grant('derivation'),
    commercialUse: grant('commercialUse'),
    dataModelTraining: grant('dataModelTraining'),
    unknownUsageRights: form.unknownUsageRights,
    currency: form.currency.trim(),
    expires: form.expires.trim() ? parseWhole(form.expires) : null,
    paymentAddress: form.paymentAddress || null,
    paymentMode: form.paymentMode,
  });
  return parsed.success ? parsed.data : null;
}

/** The licence of a UDL choice: the default, none, or the custom form's (null while invalid). */
export function chosenUdl(choice: UdlChoice, form: UdlForm): { udl: Udl | null; isValid: boolean } {
  if (choice === 'default') return { udl: DEFAULT_UDL, isValid: true };
  if (choice === 'none') return { udl: null, isValid: true };
  const udl = udlOf(form);
  return { udl, isValid: udl !== null };
}

/** Where Next goes from the UDL choice screen (spec 002 section 2). */
export function stepAfterUdlChoice(choice: UdlChoice): 'udl-custom' | 'ucm' {
  return choice === 'custom' ? 'udl-custom' : 'ucm';
}

// --- file step ---------------------------------------------------------------------------------

/** A file's name without its extension (the part NAME_TOO_LONG measures, and a collection NFT's name). */
export function nameWithoutExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

export function isFileNameTooLong(fileName: string): boolean {
  return nameWithoutExtension(fileName).length > NFT_LIMITS.FILE_NAME_MAX;
}

export interface FileStepInput {
  mintType: MintType;
  files: readonly { name: string; size: number }[];
  thumbnail?: { size: number } | null;
  banner?: { size: number } | null;
  /** Permanent storage bytes still available to this mint; null while unknown. */
  storageAvailable: number | null;
}

export interface FileStepState {
  /** Names of the files whose name is too long (each shows NAME_TOO_LONG_MESSAGE). */
  tooLong: string[];
  isOverStorage: boolean;
  canContinue: boolean;
}

/**
 * The file step: a single mint takes exactly one file, a collection at least one (at most
 * COLLECTION_MAX); every name fits; files plus thumbnail and banner fit the storage available.
 */
export function fileStepState(input: FileStepInput): FileStepState {
  const tooLong = input.files.filter((file) => isFileNameTooLong(file.name)).map((file) => file.name);
  const total = input.files.reduce((sum, file) => sum + file.size, 0) + (input.thumbnail?.size ?? 0) + (input.banner?.size ?? 0);
  const isOverStorage = input.storageAvailable !== null && total > input.storageAvailable;
  const countFits = input.mintType === 'single' ? input.files.length === 1 : input.files.length >= 1 && input.files.length <= NFT_LIMITS.COLLECTION_MAX;
  return { tooLong, isOverStorage, canContinue: countFits && tooLong.length === 0 && !isOverStorage && input.storageAvailable !== null };
}

/** The wizard's steps in order for a mint type and UDL choice (collection/display before the files). */
export function mintSteps(mintType: MintType, choice: UdlChoice): string[] {
  return ['metadata', 'udl', ...(choice === 'custom' ? ['udl-custom'] : []), 'ucm', ...(mintType === 'collection' ? ['display'] : []), 'file'];
}
