import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema with `npm run db:generate` and committed; never hand-edited.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
  casing: 'snake_case',
});
