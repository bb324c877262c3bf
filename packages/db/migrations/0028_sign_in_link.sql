ALTER TYPE "public"."account_token_purpose" ADD VALUE 'sign_in_link';--> statement-breakpoint
ALTER TYPE "public"."sign_in_method" ADD VALUE 'email_link';