import { describeServing } from './media.suite';

describeServing('local');
