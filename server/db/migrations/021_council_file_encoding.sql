-- The character encoding of the organisation's council files: UTF-8, or Windows-1252 for older
-- council billing systems (src/domain/council-encoding.ts).
ALTER TABLE organisations ADD COLUMN council_file_encoding text NOT NULL DEFAULT 'UTF-8' CHECK (council_file_encoding IN ('UTF-8', 'Windows-1252'));
