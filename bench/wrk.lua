-- wrk script of the benchmark harness: the request comes from the environment, the summary is one JSON line.
--   WRK_METHOD (GET), WRK_BODY (a JSON body), WRK_KEY (a bearer key), WRK_PATHS (paths separated by '|',
--   taken in turn, for requests that must differ, e.g. log searches for different words)
wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
if body then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
local key = os.getenv("WRK_KEY")
if key then
  wrk.headers["Authorization"] = "Bearer " .. key
end
local paths = {}
for path in string.gmatch(os.getenv("WRK_PATHS") or "", "[^|]+") do
  table.insert(paths, path)
end
local counter = 0
if #paths > 0 then
  request = function()
    counter = counter + 1
    return wrk.format(nil, paths[(counter % #paths) + 1])
  end
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format('{"requests": %d, "seconds": %.3f, "rps": %.1f, "socket_errors": %d, '
    .. '"status_errors": %d, "p50_ms": %.3f, "p95_ms": %.3f, "p99_ms": %.3f, "max_ms": %.3f}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    errors.connect + errors.read + errors.write + errors.timeout, errors.status,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000))
end
