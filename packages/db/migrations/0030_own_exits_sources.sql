-- Every pool starts with its own exits as one source, so that its traffic is attributed and its weight
-- can be weighed against a wholesale network's.
INSERT INTO "supply_sources" ("name", "pool_type", "kind")
VALUES ('Own datacenter exits', 'datacenter', 'exits'),
       ('Own residential exits', 'residential', 'exits'),
       ('Own mobile exits', 'mobile', 'exits')
ON CONFLICT ("name") DO NOTHING;
