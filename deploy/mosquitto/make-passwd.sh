#!/bin/sh
# Makes the Mosquitto password file for a Tidewatch deployment's broker (mosquitto.conf).
#
#   TIDEWATCH_BROKER_PASSWORD=<server password> deploy/mosquitto/make-passwd.sh devices.csv tidewatch.passwd
#
# devices.csv: one device a line, `SERIAL,DEVICE_KEY` (the provisioning list: the serial printed
# on the device and the key it was flashed with); blank lines and lines starting with # are skipped.
# The file gets the account tidewatch-server (every server process: MQTT_URL's user name, with
# TIDEWATCH_BROKER_PASSWORD) and one account per device (user name the serial, password the key).
# Passwords are hashed by mosquitto_passwd -U; the output file is written afresh, mode 600.
# Run it again with the whole list whenever devices are added, then reload Mosquitto (SIGHUP).
set -eu
if [ $# -ne 2 ] || [ -z "${TIDEWATCH_BROKER_PASSWORD:-}" ]; then
  echo "usage: TIDEWATCH_BROKER_PASSWORD=<password> $0 devices.csv passwd-file" >&2
  exit 2
fi
devices=$1
out=$2
command -v mosquitto_passwd >/dev/null || { echo "mosquitto_passwd not found (install mosquitto)" >&2; exit 1; }
umask 077
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
printf 'tidewatch-server:%s\n' "$TIDEWATCH_BROKER_PASSWORD" > "$tmp"
line_no=0
while IFS= read -r line || [ -n "$line" ]; do
  line_no=$((line_no + 1))
  line=$(printf '%s' "$line" | tr -d '\r')
  case "$line" in '' | '#'*) continue ;; esac
  serial=$(printf '%s' "${line%%,*}" | tr -d ' ' | tr 'a-f' 'A-F')
  key=${line#*,}
  if ! printf '%s' "$serial" | grep -Eq '^([0-9A-F]{6}|[0-9A-F]{8})$' || [ "$key" = "$line" ] || [ -z "$key" ]; then
    echo "$devices:$line_no: expected SERIAL,DEVICE_KEY with a serial of 6 or 8 hexadecimal characters" >&2
    exit 1
  fi
  case "$key" in *:*) echo "$devices:$line_no: a device key may not contain ':'" >&2; exit 1 ;; esac
  printf '%s:%s\n' "$serial" "$key" >> "$tmp"
done < "$devices"
mosquitto_passwd -U "$tmp"
mv "$tmp" "$out"
trap - EXIT
