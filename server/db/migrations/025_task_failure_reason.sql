-- Why a remote task failed, when the device said (its report's reason, issue 36 item 7).
ALTER TABLE downlink_tasks ADD COLUMN failure_reason text;
