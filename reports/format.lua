-- Numbers and names as a reviewer prints them.
local format = {}

-- v if it is a finite number (or text of one), else nil: what the report
-- can print and compare (core/lua/report.c reads Inf and text in a column of
-- numbers as nil already; this is for what comes from text and arithmetic)
function format.finite(v)
  v = tonumber(v)
  if v and v == v and v ~= math.huge and v ~= -math.huge then return v end
  return nil
end

-- 557037 -> "557,037"; 3.5 -> "3.50"; 123.4 -> "123"; nil (or not a
-- finite number) -> "–"
function format.num(v)
  v = format.finite(v)
  if not v then return "–" end
  if math.abs(v) < 10 then return ("%.2f"):format(v) end
  if math.abs(v) < 100 then return ("%.1f"):format(v) end
  local s = ("%.0f"):format(v)
  local sign, int = s:match("^(-?)(%d+)$")
  int = int:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
  return sign .. int
end

-- Counts as a chart prints them: 608643 -> "608.6k", 1.2e6 -> "1.2M", four
-- digits at most; under 10,000 as format.num ("9,500", "3.50"); "–" for
-- what is no number.
function format.si(v)
  v = format.finite(v)
  if not v then return "–" end
  local a = math.abs(v)
  for _, u in ipairs{ { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } } do
    if a >= (u[2] == "k" and 9999.5 or u[1] * 0.99995) then
      return ("%.4g%s"):format(v / u[1], u[2])
    end
  end
  return format.num(v)
end

-- A tick's label: "10k", "1.2M" from 10,000 on (from 1,000 with k: "7.5k"),
-- else "2,500", "500", "2.5", "0.05" (no trailing zeros).
function format.tick(v, k)
  v = format.finite(v) or 0
  if math.abs(v) >= 9999.5 then return format.si(v) end
  if k and math.abs(v) >= 999.5 then return ("%.4gk"):format(v / 1e3) end
  if v == math.floor(v) then return (format.num(v):gsub("%.0+$", "")) end
  return ("%.6g"):format(v)
end

-- (an axis reaching 10k labels its thousands 7.5k too, not 7,500)
local function ticks_of(list)
  local labels, big = {}, false
  for _, v in ipairs(list) do big = big or math.abs(v) >= 9999.5 end
  for k, v in ipairs(list) do labels[k] = format.tick(v, big) end
  return list, labels
end

-- A linear axis from lo to hi: 4 to 8 ticks a step of 1, 2, 2.5 or 5 x 10^n
-- apart, the range widened to the ticks around lo and hi; { min, max,
-- ticks = { values }, labels = { "200k", ... } }.
function format.axis(lo, hi)
  lo, hi = format.finite(lo) or 0, format.finite(hi) or 1
  if hi <= lo then hi = lo + math.max(math.abs(lo) * 0.1, 1) end
  local raw = (hi - lo) / 5
  local mag = 10 ^ math.floor(math.log(raw, 10))
  local step = 10 * mag
  for _, m in ipairs{ 1, 2, 2.5, 5 } do
    if m * mag >= raw * (1 - 1e-9) then step = m * mag; break end
  end
  local first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
  local list = {}
  for k = first, last do list[#list + 1] = k * step end
  local values, labels = ticks_of(list)
  return { min = first * step, max = last * step, ticks = values, labels = labels }
end

-- A log axis over lo..hi (both > 0): ticks at 1, 2, 5 x 10^n, or finer
-- (1, 2, 3, 5, 7; then every digit) until at least four are on it, from the
-- tick at or below lo to the one at or above hi (widened a tick at a time
-- while fewer than four); min and max a millionth outside them, so gnuplot
-- labels the end ticks. nil when lo or hi is no positive number.
local MANTISSAS = { { 1, 2, 5 }, { 1, 2, 3, 5, 7 }, { 1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9 } }
function format.log_axis(lo, hi)
  lo, hi = format.finite(lo), format.finite(hi)
  if not lo or not hi or lo <= 0 or hi <= 0 then return nil end
  if hi < lo then lo, hi = hi, lo end
  local list, a, b
  for _, set in ipairs(MANTISSAS) do
    list = {}
    for e = math.floor(math.log(lo, 10)) - 2, math.floor(math.log(hi, 10)) + 2 do
      for _, m in ipairs(set) do list[#list + 1] = m * 10 ^ e end
    end
    a, b = 1, #list
    for k, v in ipairs(list) do
      if v <= lo * (1 + 1e-9) then a = k end
    end
    for k = #list, 1, -1 do
      if list[k] >= hi * (1 - 1e-9) then b = k end
    end
    if b - a + 1 >= 4 then break end
  end
  while b - a + 1 < 4 do
    if (b - a) % 2 == 0 then a = math.max(a - 1, 1) else b = math.min(b + 1, #list) end
  end
  local values, labels = ticks_of(table.move(list, a, b, 1, {}))
  for k, v in ipairs(values) do values[k] = tonumber(("%.6g"):format(v)) end
  return { min = values[1] * (1 - 1e-6), max = values[#values] * (1 + 1e-6), ticks = values,
           labels = labels, log = true }
end

-- 1 -> "1 second", 4 -> "4 seconds" (plural(n, "match", "matches") for
-- others); "? seconds" when n is no number
function format.plural(n, one, many)
  n = format.finite(n)
  if not n then return ("? %s"):format(many or one .. "s") end
  local text = n == math.floor(n) and format.num(n):gsub("%.0+$", "") or format.num(n)
  return ("%s %s"):format(text, n == 1 and one or (many or one .. "s"))
end

-- 1073741824 -> "1.0 GiB", 8388608 -> "8.0 MiB"
function format.bytes(b)
  b = format.finite(b)
  if not b then return nil end
  for _, u in ipairs{ { 2 ^ 40, "TiB" }, { 2 ^ 30, "GiB" }, { 2 ^ 20, "MiB" }, { 2 ^ 10, "KiB" } } do
    if b >= u[1] then return ("%.1f %s"):format(b / u[1], u[2]) end
  end
  return format.plural(b, "byte")
end

function format.gbps(bytes_per_s)
  bytes_per_s = format.finite(bytes_per_s)
  if not bytes_per_s then return nil end
  return ("%.2f GB/s"):format(bytes_per_s / 1e9)
end

-- The PCIe ceiling of a link named pcieGENxWIDTH (the sim's notation): the
-- raw rate after line encoding (8b/10b to PCIe 2, 128b/130b for PCIe 3 to 5,
-- PCIe 6's FLIT mode 242/256, as the sim and the pcie probe count), in
-- bytes/s, and a label "PCIe3 x4 ceiling 3.94 GB/s".
local GT = { 2.5, 5, 8, 16, 32, 64 }
function format.link_ceiling(link)
  local gen, width = tostring(link or ""):match("^pcie(%d)x(%d+)$")
  gen, width = math.tointeger(tonumber(gen)), math.tointeger(tonumber(width))
  if not gen or not GT[gen] or not width then return nil end
  local enc = gen <= 2 and 0.8 or gen <= 5 and 128 / 130 or 242 / 256
  local bps = GT[gen] * 1e9 * width * enc / 8
  return bps, ("PCIe%d x%d ceiling %s"):format(gen, width, format.gbps(bps))
end

function format.link_label(link)
  local _, label = format.link_ceiling(link)
  return label and label:gsub(" ceiling", ",") or link
end

-- The generation of a probed link speed ("8.0 GT/s PCIe" -> 3).
function format.pcie_gen(speed)
  local gt = tonumber(tostring(speed or ""):match("^([%d.]+) GT/s"))
  for g, v in ipairs(GT) do if gt and math.abs(gt - v) < 0.01 then return g end end
  return nil
end

-- A whole number as text ("12"), anything else as it is ("1.5", "?" for nil):
-- for counts and sequence numbers the database may hold oddly.
function format.int(v)
  local n = math.tointeger(v)
  if n then return tostring(n) end
  return v == nil and "?" or tostring(v)
end

-- A number for data files: the shortest form that reads back as the same
-- double (12829686, not %.6g's 1.28297e+07), as hbatest export writes;
-- "" for what is not a finite number.
function format.exact(v)
  v = format.finite(v)
  if not v then return "" end
  if v == math.floor(v) and math.abs(v) < 2^53 then return ("%.0f"):format(v) end
  for digits = 1, 17 do
    local s = ("%." .. digits .. "g"):format(v)
    if tonumber(s) == v then return s end
  end
  return ("%.17g"):format(v)
end

-- A CSV field: quoted when it holds a comma, quote or newline.
function format.csv(s)
  s = tostring(s or "")
  if s:find('[,"\n\r]') then return '"' .. s:gsub('"', '""') .. '"' end
  return s
end

return format
