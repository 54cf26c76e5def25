-- wrk script for bench/mod-api.ts, bench/static-files.ts, bench/mod-answers.ts and bench/pages.ts: GETs paths read from a file (one a line),
-- at random, once each in order, or round and round in order from a random line (cycle: a long list of unknown ids then asks
-- a new one every time), with wrk's -H headers, and prints the result as one JSON line. Arguments after `--`: <paths file>
-- [random|once|cycle] [ms each connection waits between its requests, 0 for none]. Run wrk with one thread.
local paths = {}
local mode = "random"
local answered = 0
local next_index = 0

function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then paths[#paths + 1] = line end
  end
  mode = args[2] or "random"
  math.randomseed(os.time())
  -- Only "once" counts answers: wrk reads response headers only when a response() function exists.
  if mode == "once" then response = stop_when_walked end
  if mode == "cycle" then next_index = math.random(#paths) - 1 end
  -- A pause between a connection's requests paces the load (wrk calls delay() only when it exists).
  local pause = tonumber(args[3] or "0")
  if pause > 0 then delay = function() return pause end end
end

function request()
  if mode == "once" or mode == "cycle" then
    next_index = next_index % #paths + 1
    return wrk.format("GET", paths[next_index])
  end
  return wrk.format("GET", paths[math.random(#paths)])
end

function stop_when_walked()
  answered = answered + 1
  -- "once" walks the list a single time (every path asked at least once), then says so: wrk's main thread sleeps for the
  -- whole -d duration whatever its threads do, so the caller interrupts it (SIGINT) to get the summary.
  if answered == #paths then
    io.write("walked\n")
    io.flush()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests":%d,"bytes":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\n',
    summary.requests, summary.bytes, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
