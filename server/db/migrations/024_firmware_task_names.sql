-- A firmware task names its firmware (issue 36, item 7): new tasks carry fwName, fwType and
-- fwVersion beside fwId from their creation (server/tasks/rules.ts); tasks from before get them here.
UPDATE downlink_tasks t SET params = t.params || jsonb_build_object('fwName', f.fw_name, 'fwType', f.fw_type, 'fwVersion', f.fw_version)
FROM firmware f WHERE t.type = 'FirmwareDownload' AND f.id::text = t.params->>'fwId' AND NOT (t.params ? 'fwName');
