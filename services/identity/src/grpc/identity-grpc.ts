import { identity } from '@flatlay/proto';
import { serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';
import type { Accounts, Profile, Session } from '../app/accounts.js';
import type { DataExports } from '../app/data-exports.js';
import type { SelfService } from '../app/self-service.js';

const toUser = (p: Profile): identity.User => ({
  id: p.id,
  email: p.email,
  role: p.role,
  firstName: p.firstName,
  lastName: p.lastName,
  name: p.name,
  avatarUrl: p.avatarUrl,
  stripeCustomerId: p.stripeCustomerId,
  stripeSubscriptionId: p.stripeSubscriptionId,
  subscriptionPlan: p.subscriptionPlan,
  subscriptionStatus: p.subscriptionStatus,
  subscriptionPlanName: p.subscriptionPlanName,
  subscriptionPeriodEnd: p.subscriptionPeriodEnd,
  isUnlimited: p.isUnlimited,
  createdAt: p.createdAt,
  emailVerified: p.emailVerified,
});

const toSession = (s: Session) => ({ accessToken: s.accessToken, user: toUser(s.user) });

/** Maps the IdentityService protobuf API to the application. */
export function identityGrpcService(
  ctx: ServiceContext,
  {
    accounts,
    self,
    exports,
    siteUrl,
  }: { accounts: Accounts; self: SelfService; exports: DataExports; siteUrl: string },
): GrpcService {
  const { logger } = ctx;
  const implementation: identity.IdentityServiceServer = {
    getServiceStatus: unary(logger, async () => serviceStatus(ctx)),
    register: unary(logger, async (req: identity.RegisterRequest) =>
      toSession(await accounts.register(req.email, req.password, req.consentVersion ?? '')),
    ),
    login: unary(logger, async (req: identity.LoginRequest) =>
      toSession(await accounts.login(req.email, req.password)),
    ),
    loginWithGoogle: unary(logger, async (req: identity.LoginWithGoogleRequest) =>
      toSession(await accounts.loginWithGoogle(req.idToken, req.consentVersion ?? '')),
    ),
    loginWithSupabase: unary(logger, async (req: identity.LoginWithSupabaseRequest) =>
      toSession(
        await accounts.loginWithSupabase(req.accessToken, {
          userId: req.userId,
          email: req.email,
          name: req.name,
          avatarUrl: req.avatarUrl,
        }),
      ),
    ),
    adminLogin: unary(logger, async (req: identity.AdminLoginRequest) => ({
      accessToken: await accounts.adminLogin(req.username, req.password),
    })),
    verifyToken: unary(logger, async (req: identity.VerifyTokenRequest) => {
      const c = await accounts.verify(req.token);
      return { userId: c.userId, role: c.role, tokenId: c.tokenId, expiresAt: c.expiresAt };
    }),
    revokeToken: unary(logger, async (req: identity.RevokeTokenRequest) => ({
      revoked: await accounts.revoke(req.token),
    })),
    getProfile: unary(logger, async (req: identity.GetProfileRequest) => ({
      user: toUser(await accounts.profile(req.userId)),
    })),
    deleteUser: unary(logger, async (req: identity.DeleteUserRequest) => ({
      userId: await accounts.deleteUser({ userId: req.userId, email: req.email }),
    })),
    requestEmailVerification: unary(logger, async (req: identity.RequestEmailVerificationRequest) => ({
      sent: await self.requestEmailVerification(req.userId),
    })),
    verifyEmail: unary(logger, async (req: identity.VerifyEmailRequest) => ({
      user: toUser(await self.verifyEmail(req.token)),
    })),
    requestPasswordReset: unary(logger, async (req: identity.RequestPasswordResetRequest) => {
      await self.requestPasswordReset(req.email);
      return {};
    }),
    resetPassword: unary(logger, async (req: identity.ResetPasswordRequest) => {
      await self.resetPassword(req.token, req.newPassword);
      return {};
    }),
    changePassword: unary(logger, async (req: identity.ChangePasswordRequest) =>
      toSession(await accounts.changePassword(req.userId, req.currentPassword, req.newPassword)),
    ),
    requestEmailChange: unary(logger, async (req: identity.RequestEmailChangeRequest) => {
      await self.requestEmailChange(req.userId, req.password, req.newEmail);
      return {};
    }),
    requestDataExport: unary(logger, async (req: identity.RequestDataExportRequest) => ({
      exportId: await exports.request(req.userId),
    })),
    claimDataExport: unary(logger, async (req: identity.ClaimDataExportRequest) => {
      const claimed = await exports.claim(req.leaseSeconds);
      return { exportId: claimed?.id ?? '', userId: claimed?.userId ?? '', siteUrl: claimed ? siteUrl : '' };
    }),
    completeDataExport: unary(logger, async (req: identity.CompleteDataExportRequest) => ({
      completed: await exports.complete(req.exportId, req.archivePath, req.expiresAt ?? new Date()),
    })),
    listExpiredDataExports: unary(logger, async (req: identity.ListExpiredDataExportsRequest) => ({
      exports: (await exports.expiredArchives(req.olderThanSeconds, req.limit)).map((e) => ({
        exportId: e.id,
        userId: e.userId,
      })),
    })),
    markDataExportsSwept: unary(logger, async (req: identity.MarkDataExportsSweptRequest) => ({
      marked: await exports.archivesSwept(req.exportIds),
    })),
    deleteOwnAccount: unary(logger, async (req: identity.DeleteOwnAccountRequest) => ({
      userId: await accounts.deleteOwnAccount(req.userId, req.password, req.confirmation),
    })),
    confirmEmailChange: unary(logger, async (req: identity.ConfirmEmailChangeRequest) => ({
      user: toUser(await self.confirmEmailChange(req.token)),
    })),
  };
  return { name: 'flatlay.identity.v1.IdentityService', definition: identity.IdentityServiceService, implementation };
}
