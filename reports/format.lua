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
