import { DB_KINDS } from '../../../tests/support/app';
import { describeUploads } from './upload.suite';

for (const kind of DB_KINDS) describeUploads(kind, 'local');
