#!/bin/sh
# Installs the real mail servers the real-server suite runs (test/integration/real-mta), from Debian's
# packages, as root: Postfix, postgrey and Dovecot's IMAP server (the bounce mailbox) as packages; Exim
# and OpenSMTPD, which conflict with Postfix as installed packages, unpacked into $SIFT_MTA_ROOT (default
# /opt/sift-mta) with their libraries and system users. Nothing is started or enabled: the suite runs each server itself on loopback addresses.
set -eu
root=${SIFT_MTA_ROOT:-/opt/sift-mta}
export DEBIAN_FRONTEND=noninteractive
# Postfix asks how it should send mail; "No configuration" leaves it unconfigured and stopped.
echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
apt-get update -qq
apt-get install -y -qq --no-install-recommends postfix postgrey rbldnsd dovecot-imapd openssl adduser \
  libidn12 libgnutls-dane0 libgnutls30 libidn2-0 libnsl2 libpcre2-8-0 libdb5.3 libevent-2.1-7 libpam0g >/dev/null
if [ ! -x "$root/usr/sbin/exim4" ] || [ ! -x "$root/usr/sbin/smtpd" ]; then
  debs=$(mktemp -d)
  chmod 755 "$debs" # apt downloads as its own user
  (cd "$debs" && apt-get download -qq exim4-daemon-light exim4-base exim4-config opensmtpd)
  mkdir -p "$root"
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$root"; done
  rm -rf "$debs"
fi
# The users Exim and OpenSMTPD drop their privileges to (their packages' own postinst would make them).
# adduser refuses capitals by default (SYS_NAME_REGEX); useradd takes the name Debian uses.
getent passwd Debian-exim >/dev/null || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin Debian-exim
for name in opensmtpd opensmtpq; do
  getent group "$name" >/dev/null || addgroup --quiet --system "$name"
  getent passwd "$name" >/dev/null ||
    adduser --quiet --system --no-create-home --home /var/lib/opensmtpd/empty --ingroup "$name" "$name"
done
mkdir -p /var/lib/opensmtpd/empty
echo "Mail servers ready: Postfix $(postconf -dh mail_version), Dovecot $(dovecot --version | cut -d" " -f1), $("$root/usr/sbin/exim4" -bV 2>/dev/null | head -1), OpenSMTPD in $root"
