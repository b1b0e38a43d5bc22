/** Serving once more with S3-compatible storage (an S3 protocol peer): redirects to presigned GETs. */
import { describeServing } from './media.suite';

describeServing('s3');
