CREATE TABLE "provenance_development_pair" (
	"id" smallint PRIMARY KEY NOT NULL,
	"root_pem" text NOT NULL,
	"leaf_pem" text NOT NULL,
	"key_pem" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
