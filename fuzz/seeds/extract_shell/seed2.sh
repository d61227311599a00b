# Prints a log line.
log() {
  echo "[$(date +%T)] $*" >&2
}
