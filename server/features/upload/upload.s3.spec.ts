/** The upload flow once more with S3-compatible storage (an S3 protocol peer), on PGlite only. */
import { describeUploads } from './upload.suite';

describeUploads('pglite', 's3');
