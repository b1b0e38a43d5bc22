import { defineFeature } from '../../app-context';
import { registerCreditsRoutes } from './credits.routes';

/** The ledger is what other features spend, refund and grant through. */
export { creditBalance, daysFromNow, grantCredits, InsufficientCreditsError, refundIn, spendIn, spendOrRefuse } from './ledger';
/** What the operator's calls create: accounts with a first grant, redemption codes. */
export { createAccount, issueRedeemCodes } from './credits.service';

export const creditsFeature = defineFeature({ name: 'credits', register: registerCreditsRoutes });
