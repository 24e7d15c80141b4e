/**
 * Organisations (issue 22; spec 001 sections 3-7; SYNC_SPEC R124-R127): who belongs to which
 * organisation, with which role, and how its subdomain is branded. Every rule is checked here, on
 * the server: only admins (role OWNER) change the organisation and its people, anyone of it reads
 * the list, nobody else reads anything but the public branding of a subdomain.
 *
 * Vaults are not this service's: joining an admin to vaults and taking a revoked person out of
 * them are signed member operations made on the acting device (R128-R131).
 */
import { ApiError } from '../../src/protocol/errors';
import type {
  CreateOrganisationRequest,
  InviteOrganisationMemberRequest,
  MyOrganisationResponse,
  Organisation,
  OrganisationBranding,
  OrganisationMember,
  OrganisationMembersResponse,
  UpdateOrganisationRequest,
} from '../../src/protocol/organisations';
import { ORGANISATION_TEXTS, subdomainOfHost } from '../../src/protocol/organisations';
import type { OrganisationsTable } from '../db/Database';
import { isUniqueViolation } from '../db/isUniqueViolation';
import type { MailPort } from '../mail/MailPort';
import { organisationMail } from '../mail/messages';
import type { AllowanceService } from './AllowanceService';
import type { MemberService } from './MemberService';
import type { Clock } from './Clock';
import { assertSafeLogo } from './organisationLogo';
import { randomId } from './tokens';
import type { Db } from './vaultRows';

export const SUBDOMAIN_TAKEN = 'This subdomain is taken.';
/** How long a process trusts that a subdomain it saw done is still done (R125). */
const ANSWERED_REMEMBERED_MS = 60_000;
const NO_ORGANISATION = 'You have no organisation yet: add your organisation name first.';

/** An organisation's row (migration 0019). */
type OrganisationRow = OrganisationsTable;

/** An organisation's row with its creator's e-mail (spec 001 section 3: the organisation's email). */
interface PlacedOrganisation extends OrganisationRow {
  owner_email: string;
}

/** The caller's place: their organisation's row and their role in it. */
interface Place {
  organisation: PlacedOrganisation;
  role: 'OWNER' | 'MEMBER';
}

export interface OrganisationLog {
  error(details: object, message: string): void;
}

export class OrganisationService {
  /**
   * Subdomains seen done, until when (ms): requests through them then neither read nor write
   * (R125). Only `done` is remembered, and for a minute: a subdomain no organisation holds yet,
   * or one another process renamed and another organisation took, is read again soon enough for
   * the admin's 5-second poll to see it become ready.
   */
  private readonly answered = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly allowances: AllowanceService,
    /** Finds the account an e-mail names (MemberService.lookup). */
    private readonly users: Pick<MemberService, 'lookup'>,
    private readonly mailer: MailPort,
    private readonly log: OrganisationLog,
    /** PUBLIC_URL and BASE_DOMAIN: where subdomains are served (R125). */
    private readonly hosts: { publicUrl: string; baseDomain: string },
  ) {}

  /** GET /organisations: the caller's organisation, whether they may create one, and whether the menu shows. */
  async mine(userId: string): Promise<MyOrganisationResponse> {
    const place = await this.placeOf(userId);
    // The feature is the plan's: the organisation owner's once in one (AllowanceService.planOf).
    const hasFeature = await this.allowances.hasFeature(userId, 'organisation');
    return {
      organisation: place ? this.toOrganisation(place, userId) : null,
      canCreate: !place && hasFeature,
      showMenu: hasFeature && place?.role !== 'MEMBER',
    };
  }

  /** GET /organisations?subdomain=: what a signed-out page of the subdomain shows. */
  async branding(subdomain: string): Promise<OrganisationBranding> {
    const row = await this.db.selectFrom('organisations').selectAll().where('subdomain', '=', subdomain).executeTakeFirst();
    if (!row?.subdomain) throw new ApiError('ORG_DOESNT_EXISTS', 'No organisation uses this subdomain');
    return {
      id: row.id,
      name: row.name,
      subdomain: row.subdomain,
      logo: row.logo,
      primaryColor: row.primary_color,
      secondaryColor: row.secondary_color,
    };
  }

  /** POST /organisations: the caller becomes its creator and first admin. */
  async create(userId: string, body: CreateOrganisationRequest): Promise<Organisation> {
    await this.allowances.assertFeature(userId, 'organisation');
    assertSafeLogo(body.logo);
    const now = this.clock.now();
    const id = randomId();
    try {
      await this.db.transaction().execute(async (tx) => {
        if (await this.placeOf(userId, tx)) throw new ApiError('CONFLICT', 'You already belong to an organisation.');
        await tx
          .insertInto('organisations')
          .values({
            id,
            name: body.name,
            subdomain: body.subdomain,
            subdomain_status: 'pending',
            logo: body.logo,
            primary_color: body.primaryColor ?? null,
            secondary_color: body.secondaryColor ?? null,
            owner_user_id: userId,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await tx.insertInto('organisation_members').values({ organisation_id: id, user_id: userId, role: 'OWNER', invited_by_user_id: null, created_at: now }).execute();
      });
    } catch (error) {
      throw this.uniqueRefusal(error);
    }
    return this.organisationOf(userId);
  }

  /** PUT /organisations/{id} (admins): the given fields; a new subdomain is pending again. */
  async update(userId: string, orgId: string, body: UpdateOrganisationRequest): Promise<Organisation> {
    const place = await this.requireAdmin(userId, orgId);
    if (body.logo !== undefined) assertSafeLogo(body.logo);
    const isNewSubdomain = body.subdomain !== undefined && body.subdomain !== place.organisation.subdomain;
    try {
      await this.db
        .updateTable('organisations')
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.subdomain !== undefined ? { subdomain: body.subdomain } : {}),
          ...(isNewSubdomain ? { subdomain_status: 'pending' } : {}),
          ...(body.logo !== undefined ? { logo: body.logo } : {}),
          ...(body.primaryColor !== undefined ? { primary_color: body.primaryColor } : {}),
          ...(body.secondaryColor !== undefined ? { secondary_color: body.secondaryColor } : {}),
          updated_at: this.clock.now(),
        })
        .where('id', '=', orgId)
        .execute();
    } catch (error) {
      throw this.uniqueRefusal(error);
    }
    if (isNewSubdomain && place.organisation.subdomain) this.answered.delete(place.organisation.subdomain);
    return this.organisationOf(userId);
  }

  /** GET /organisations/{id}/members: anyone of the organisation. */
  async members(userId: string, orgId: string): Promise<OrganisationMembersResponse> {
    const place = await this.requirePlace(userId, orgId);
    const people = await this.peopleOf(place.organisation);
    return { members: people.filter((p) => !p.isAdmin), admins: people.filter((p) => p.isAdmin) };
  }

  /** POST /organisations/{id}/members (admins): an existing account joins, as admin (OWNER) or MEMBER. */
  async invite(userId: string, inviterEmail: string, orgId: string, body: InviteOrganisationMemberRequest): Promise<OrganisationMember> {
    const place = await this.requireAdmin(userId, orgId);
    // The accounts anyone may name, as for a vault invitation: verified, with a password (USER_NOT_FOUND).
    const invitee = { id: (await this.users.lookup(body.email)).userId };
    try {
      await this.db.transaction().execute(async (tx) => {
        if (await this.placeOf(invitee.id, tx)) throw new ApiError('ALREADY_MEMBER', 'This person already belongs to an organisation.');
        await tx
          .insertInto('organisation_members')
          .values({ organisation_id: orgId, user_id: invitee.id, role: body.isAdmin ? 'OWNER' : 'MEMBER', invited_by_user_id: userId, created_at: this.clock.now() })
          .execute();
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('ALREADY_MEMBER', 'This person already belongs to an organisation.');
      throw error;
    }
    if (!body.skipEmail) await this.mail(body, inviterEmail, place.organisation.name);
    const added = (await this.peopleOf(place.organisation)).find((p) => p.userId === invitee.id);
    if (!added) throw new ApiError('INTERNAL', 'The new member could not be read back');
    return added;
  }

  /** DELETE /organisations/{id}/members/{email} (admins): anyone but the creator leaves the organisation. */
  async remove(userId: string, orgId: string, email: string): Promise<void> {
    const place = await this.requireAdmin(userId, orgId);
    const target = await this.db
      .selectFrom('organisation_members as om')
      .innerJoin('users as u', 'u.id', 'om.user_id')
      .select(['om.user_id'])
      .where('om.organisation_id', '=', orgId)
      .where('u.email', '=', email)
      .executeTakeFirst();
    if (!target) throw new ApiError('NOT_FOUND', 'This person is not in your organisation.');
    if (target.user_id === place.organisation.owner_user_id) {
      throw new ApiError('FORBIDDEN', "The organisation's creator cannot be removed from it.");
    }
    await this.db.deleteFrom('organisation_members').where('user_id', '=', target.user_id).where('organisation_id', '=', orgId).execute();
  }

  /**
   * A request reached the server through `{subdomain}.{BASE_DOMAIN}` (R125): a pending subdomain
   * is done, since it answers. A read per request until it is done, written once.
   */
  async subdomainAnswered(subdomain: string): Promise<void> {
    const now = this.clock.now();
    if ((this.answered.get(subdomain) ?? 0) > now) return;
    const row = await this.db.selectFrom('organisations').select('subdomain_status').where('subdomain', '=', subdomain).executeTakeFirst();
    if (!row) return;
    if (row.subdomain_status === 'pending') {
      await this.db
        .updateTable('organisations')
        .set({ subdomain_status: 'done' })
        .where('subdomain', '=', subdomain)
        .where('subdomain_status', '=', 'pending')
        .execute();
    }
    this.answered.set(subdomain, now + ANSWERED_REMEMBERED_MS);
  }

  /** The subdomain label of a request's Host header, or null (R125). */
  subdomainOfHost(host: string | undefined): string | null {
    return subdomainOfHost(host, this.hosts.baseDomain);
  }

  /** 403 for a caller who does not pay their own plan (an organisation's invitee): R126. */
  async assertPaysOwnPlan(userId: string): Promise<void> {
    const place = await this.placeOf(userId);
    if (place && place.organisation.owner_user_id !== userId) {
      throw new ApiError('FORBIDDEN', "Your organisation's plan covers your storage: its owner manages plans and payments.");
    }
  }

  private async mail(body: InviteOrganisationMemberRequest, inviterEmail: string, organisationName: string): Promise<void> {
    const link = `${body.origin ? new URL(body.origin).origin : this.hosts.publicUrl}/vaults/active`;
    try {
      await this.mailer.send(organisationMail({ to: body.email, inviterEmail, organisationName, isAdmin: body.isAdmin, link }));
    } catch (error) {
      // The person is in the organisation either way; the e-mail is a courtesy.
      this.log.error({ err: error }, 'organisation e-mail failed');
    }
  }

  private uniqueRefusal(error: unknown): unknown {
    if (!isUniqueViolation(error)) return error;
    return new ApiError('CONFLICT', SUBDOMAIN_TAKEN, [{ path: 'subdomain', message: SUBDOMAIN_TAKEN }]);
  }

  private async organisationOf(userId: string): Promise<Organisation> {
    const place = await this.placeOf(userId);
    if (!place) throw new ApiError('ORG_DOESNT_EXISTS', NO_ORGANISATION);
    return this.toOrganisation(place, userId);
  }

  private async placeOf(userId: string, db: Db = this.db): Promise<Place | null> {
    const row = await db
      .selectFrom('organisation_members as om')
      .innerJoin('organisations as o', 'o.id', 'om.organisation_id')
      .innerJoin('users as ou', 'ou.id', 'o.owner_user_id')
      .selectAll('o')
      .select(['om.role as member_role', 'ou.email as owner_email'])
      .where('om.user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return null;
    const { member_role, ...organisation } = row;
    return { organisation: { ...organisation, created_at: Number(organisation.created_at), updated_at: Number(organisation.updated_at) }, role: member_role === 'OWNER' ? 'OWNER' : 'MEMBER' };
  }

  /** The caller's place in organisation `orgId`: ORG_DOESNT_EXISTS without one, FORBIDDEN in another. */
  private async requirePlace(userId: string, orgId: string): Promise<Place> {
    const place = await this.placeOf(userId);
    if (!place) throw new ApiError('ORG_DOESNT_EXISTS', NO_ORGANISATION);
    if (place.organisation.id !== orgId) throw new ApiError('FORBIDDEN', ORGANISATION_TEXTS.notAllowed);
    return place;
  }

  private async requireAdmin(userId: string, orgId: string): Promise<Place> {
    const place = await this.requirePlace(userId, orgId);
    if (place.role !== 'OWNER') throw new ApiError('FORBIDDEN', ORGANISATION_TEXTS.notAllowed);
    return place;
  }

  private async peopleOf(organisation: OrganisationRow): Promise<OrganisationMember[]> {
    const rows = await this.db
      .selectFrom('organisation_members as om')
      .innerJoin('users as u', 'u.id', 'om.user_id')
      .select(['om.user_id', 'om.role', 'om.created_at', 'u.email', 'u.name', 'u.address', 'u.public_signing_key', 'u.public_encryption_key'])
      .where('om.organisation_id', '=', organisation.id)
      .orderBy('om.created_at')
      .orderBy('om.user_id')
      .execute();
    return rows.map((row) => ({
      userId: row.user_id,
      email: row.email,
      address: row.address,
      publicSigningKey: row.public_signing_key,
      publicEncryptionKey: row.public_encryption_key,
      profileName: row.name,
      role: row.role === 'OWNER' ? 'OWNER' : 'MEMBER',
      isAdmin: row.role === 'OWNER',
      isOwner: row.user_id === organisation.owner_user_id,
      createdAt: Number(row.created_at),
    }));
  }

  private toOrganisation(place: Place, userId: string): Organisation {
    const { organisation } = place;
    const creator = organisation.owner_user_id === userId;
    return {
      id: organisation.id,
      name: organisation.name,
      subdomain: organisation.subdomain,
      subdomainStatus: organisation.subdomain ? (organisation.subdomain_status === 'done' ? 'done' : 'pending') : 'none',
      subdomainUrl: organisation.subdomain ? this.subdomainUrl(organisation.subdomain) : null,
      logo: organisation.logo,
      primaryColor: organisation.primary_color,
      secondaryColor: organisation.secondary_color,
      email: organisation.owner_email,
      orgRole: place.role === 'OWNER' ? 'ADMIN' : 'MEMBER',
      isOwner: creator,
      createdAt: organisation.created_at,
      updatedAt: organisation.updated_at,
    };
  }

  /** `{scheme}//{subdomain}.{BASE_DOMAIN}{:port}` with PUBLIC_URL's scheme and port. */
  private subdomainUrl(subdomain: string): string {
    const url = new URL(this.hosts.publicUrl);
    return `${url.protocol}//${subdomain}.${this.hosts.baseDomain}${url.port ? `:${url.port}` : ''}`;
  }
}
