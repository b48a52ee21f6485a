# shellcheck shell=bash
# make bench's client side for QUIC stacks' own clients (sourced by their run_endpoint.sh):
# each URL of REQUESTS downloaded by its own client process, so on a fresh connection, in order,
# each with a qlog folder of its own (/logs/qlog/bench-<n>/). One line per download goes to
# /logs/bench.jsonl, failed ones too, with the names curl's -w '%{json}' uses where they mean the
# same: url_effective, http_version, exitcode, errormsg, size_download; plus sha256 (of the body
# the client saved, which is then deleted: 10 MB per download would pile up) and qlog (the
# folder, relative to /logs). The times are not measured here: wirelab reads them from the
# qlog after the cell is fenced (internal/benchsuite/qlogtimes.go), so process start-up is not
# in them and the stored evidence gives the same numbers again.
#
# Usage: bench_downloads NAME FETCH, where FETCH URL QLOGDIR downloads URL over h3 into
# /downloads/<last path segment> (exit 0 = the client says it succeeded) and writes its qlog into
# QLOGDIR; its output goes to /logs/<NAME>-bench.log.

# json_string S: S as a JSON string (the error lines quote paths and messages).
json_string() {
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\t'/ }
  s=${s//$'\r'/}
  printf '"%s"' "${s//$'\n'/ }"
}

bench_downloads() {
  local name=$1 fetch=$2 log=/logs/$1-bench.log urls u n=0 status=0 rc file size sum err
  read -r -a urls <<<"${REQUESTS:-}"
  [ ${#urls[@]} -gt 0 ] || { echo "$name client: REQUESTS is empty" >&2; return 1; }
  /wait-for-it.sh sim:57832 -s -t 30 || { echo "sim not ready" >&2; return 1; }
  echo "$name client: TESTCASE=bench, ${#urls[@]} download(s) over h3, times from each download's qlog"
  mkdir -p /downloads
  for u in "${urls[@]}"; do
    n=$((n + 1))
    mkdir -p "/logs/qlog/bench-$n"
    file=${u#*://}; file=${file#*/}; file=/downloads/${file##*/}
    rm -f "$file"
    echo "+ download $n: $u" >>"$log"
    "$fetch" "$u" "/logs/qlog/bench-$n" >>"$log" 2>&1
    rc=$?
    size=0 sum="" err=""
    if [ -f "$file" ]; then
      size=$(stat -c %s "$file")
      sum=$(sha256sum "$file" | cut -d' ' -f1)
      rm -f "$file"
    fi
    if [ $rc -ne 0 ]; then
      err="$name client exit $rc: $(tail -n 1 "$log")"
    elif [ -z "$sum" ]; then
      rc=1 err="$name client exit 0 but saved no $file"
    fi
    [ $rc -eq 0 ] || status=1
    printf '{"url_effective":%s,"http_version":"3","exitcode":%d,"errormsg":%s,"size_download":%d,"sha256":"%s","qlog":"qlog/bench-%d"}\n' \
      "$(json_string "$u")" "$rc" "$(json_string "$err")" "$size" "$sum" "$n" >>/logs/bench.jsonl
  done
  echo "$name client: bench done (exit $status)"
  return $status
}
