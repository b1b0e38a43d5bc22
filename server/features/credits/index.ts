import { defineFeature } from '../../app-context';
import { registerCreditsRoutes } from './credits.routes';

/** The ledger is what other features spend, refund and grant through. */
export { creditBalance, daysFromNow, grantCredits, InsufficientCreditsError, refundIn, spendIn } from './ledger';

export const creditsFeature = defineFeature({ name: 'credits', register: registerCreditsRoutes });
