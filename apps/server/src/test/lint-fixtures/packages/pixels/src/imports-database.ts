// Bad: a package opens the database (and HTTP) itself instead of being handed what it needs.
import { sql } from 'drizzle-orm';
import { request } from 'node:http';

export const packageDoesIo = [sql, request];
export const packageFetches = () => fetch('http://localhost/');
