-- reports/page.lua: the default report's page around its tables and charts:
-- stable anchors and the table of contents, each group's headline (which
-- run leads and by how much), deltas told by arrow and sign as well as by
-- colour, and the groups `report --only PATTERN` selects.
local compare = require("compare")
local fmt = require("format")

local esc = report.escape_html
local page = {}

-- ---- --only: groups by glob ------------------------------------------------
-- A step's group: its group name, or its own name when it has none (a
-- single step), as the summary folds them.
function page.group_of(s)
  return (s.group_name and s.group_name ~= "") and s.group_name or (s.name or "?")
end

-- A shell glob (* any run of characters, ? one, [abc] [!a-z] a class) as an
-- anchored Lua pattern; letters match either case.
local function glob_pattern(glob)
  local out, i = { "^" }, 1
  while i <= #glob do
    local c = glob:sub(i, i)
    local class = c == "[" and glob:find("]", i + 2, true)
    if c == "*" then out[#out + 1] = ".*"
    elseif c == "?" then out[#out + 1] = "."
    elseif class then
      local body = glob:sub(i + 1, class - 1):gsub("^!", "^"):gsub("%%", "%%%%")
      out[#out + 1] = "[" .. body:lower() .. body:upper() .. "]"
      i = class
    elseif c:match("%a") then out[#out + 1] = "[" .. c:lower() .. c:upper() .. "]"
    elseif c:match("%p") then out[#out + 1] = "%" .. c
    else out[#out + 1] = c end
    i = i + 1
  end
  return table.concat(out) .. "$"
end

-- Does name match one of the globs? (matched[k] set for glob k when it does)
local function matches(globs, name, matched)
  local any = false
  for k, g in ipairs(globs) do
    if name:match(glob_pattern(g)) then matched[k], any = true, true end
  end
  return any
end

-- Keep in steps[i] (each run's steps) only the steps of the groups the globs
-- select; a glob that selects no group of any run is a usage error naming
-- it and the groups there are.
function page.only(steps, globs)
  if not globs or #globs == 0 then return end
  local matched, names = {}, {}
  for i, list in ipairs(steps) do
    local kept = {}
    for _, s in ipairs(list) do
      local g = page.group_of(s)
      if not names[g] then names[g] = true; names[#names + 1] = g end
      if matches(globs, g, matched) then kept[#kept + 1] = s end
    end
    steps[i] = kept
  end
  for k, g in ipairs(globs) do
    if not matched[k] then
      local some = {}
      for n = 1, math.min(#names, 8) do some[n] = "'" .. names[n] .. "'" end
      report.usage_error(("--only '%s' matches no group of these runs (a glob over the whole group "
        .. "name, any case; groups: %s%s)"):format(g, table.concat(some, ", "),
        #names > 8 and (", and %d more"):format(#names - 8) or ""))
    end
  end
end

-- ---- deltas: arrow, sign and colour ---------------------------------------
-- "▲ +10.0 %", "▼ -3.2 %", "±0.0 %" (a change that rounds to nothing has no
-- direction), "–" when there is none; class as compare.delta gives it.
function page.delta_text(d)
  if not d then return "–" end
  local txt = ("%.1f %%"):format(math.abs(d))
  if txt == "0.0 %" then return "±0.0 %" end
  return d > 0 and ("▲ +" .. txt) or ("▼ -" .. txt)
end

local CLASS_WORDS = { better = "better", worse = "worse", noise = "within noise" }
function page.delta_cell(d, class)
  return ('<td class="num %s"%s>%s</td>'):format(class or "",
    class and (' title="%s"'):format(CLASS_WORDS[class]) or "", page.delta_text(d))
end

-- ---- headlines: who leads a group, and by how much -------------------------
-- The row of rows to judge a group at: the one at `at` (a table axis ->
-- value, such as { oio = 32 }) when the group is swept on that axis and has
-- that point, else the highest point every run finished (a group of one
-- step: that step, when every run finished it). A preconditioning step is
-- no verdict on the group: it makes no headline.
local function point_row(rows, nruns, at)
  local best
  for _, row in ipairs(rows) do
    local s = row.first
    local all = s.kind ~= "precondition"
    for i = 1, nruns do
      if not (row.steps[i] and row.steps[i].status == "done") then all = false end
    end
    local x = s.axis and compare.axis_x(s.axis, s.axis_value)
    if all and at and s.axis and at[s.axis] ~= nil and x == compare.axis_x(s.axis, at[s.axis]) then
      return row
    end
    if all and (not best or (x or 0) > (best.x or 0)) then best = { row = row, x = x } end
  end
  return best and best.row
end

-- headline(section_rows, at): the leading run of a group's rows at its
-- point (point_row), on the group's metric (IOPS or MB/s, higher is
-- better): { leader =, second =, value =, margin_pct =, tied =, row =,
-- field =, unit = }, or nil with fewer than two runs or no shared point.
function page.headline(section_rows, at, nruns)
  nruns = nruns or #report.runs
  if nruns < 2 or #section_rows == 0 then return nil end
  local row = point_row(section_rows, nruns, at)
  if not row then return nil end
  local field, unit = compare.metric(row.first)
  local vals = {}
  for i = 1, nruns do vals[i] = row.steps[i][field] end
  local lead = compare.best(vals, nruns, true)
  if not lead or vals[lead] == 0 then return nil end
  local second
  for i = 1, nruns do
    if i ~= lead and vals[i] and (not second or vals[i] > vals[second]) then second = i end
  end
  local margin = (vals[lead] - vals[second]) / vals[second] * 100
  return { leader = lead, second = second, value = vals[lead], margin_pct = margin,
           tied = compare.ties(vals[second], vals[lead]), row = row, field = field, unit = unit }
end

-- "at OIO 256", "at write % 50"; for a step that is no point of a sweep,
-- its name when the group's is not (' in “first card alone”'), else ""
local function point_words(s)
  if not s.axis or s.axis == "" then
    local g = s.group_name ~= "" and s.group_name
    return g and s.name and s.name ~= g and (" in “%s”"):format(esc(s.name)) or ""
  end
  local axis = ({ oio = "OIO", write_pct = "write %", bs = "bs" })[s.axis] or s.axis
  return (" at %s %s"):format(axis, s.axis_value)
end

-- The headline as HTML: "ASR-8885 leads at OIO 256: 152,340 IOPS, +12.3 %
-- over 9361-8i", or that they tie within the noise.
function page.headline_html(h, runs)
  local r, o = runs[h.leader], runs[h.second]
  local function who(x)
    return ('<span class="who"><span class="swatch" style="background:%s"></span><b>%s</b></span>'):format(
      x.color, esc(x.name))
  end
  local at = point_words(h.row.first)
  if h.tied then
    return ("%s and %s tie%s (within %s %%): %s %s"):format(who(r), who(o), at, compare.noise_pct,
      fmt.num(h.value), esc(h.unit))
  end
  return ('%s leads%s: %s %s, <span class="margin">▲ +%.1f %%</span> over %s'):format(who(r), at,
    fmt.num(h.value), esc(h.unit), h.margin_pct, who(o))
end

-- ---- anchors and the table of contents -------------------------------------
-- "RAID5 4k random read" -> "raid5-4k-random-read"
local function slug(s)
  s = s:gsub("<[^>]*>", ""):gsub("&%w+;", ""):lower():gsub("[^%w]+", "-")
  return (s:gsub("^%-+", ""):gsub("%-+$", ""))
end
page.slug = slug

-- An id from prefix and name, made unique on the page (-2, -3 ...); with
-- no prefix, name is an id the page's HTML gave (curves.lua's "lat-" plus
-- the group's slug, alike for groups "x y" and "X-y"), claimed so.
function page.ids()
  local taken = {}
  return function(prefix, name)
    local base = prefix and (prefix .. "-" .. slug(name)) or name
    local id, n = base, 1
    while taken[id] do n = n + 1; id = ("%s-%d"):format(base, n) end
    taken[id] = true
    return id
  end
end

-- HTML text as plain text: its entities as characters (&#39; -> ')
local ENTITY = { amp = "&", lt = "<", gt = ">", quot = '"', apos = "'", nbsp = "\u{a0}" }
local function unescape(text)
  return (text:gsub("&(#?)([xX]?)(%w+);", function(num, hex, name)
    local c = num == "#" and math.tointeger(tonumber(name, hex ~= "" and 16 or 10))
    if c and c >= 0 and c <= 0x10FFFF then return utf8.char(c) end
    return num == "" and hex == "" and ENTITY[name] or nil
  end))
end

-- A figure's entry: its chart's name (NN-name.svg) as id; as text its
-- caption without the group's name the heading above says, to its first ";"
-- (then an ellipsis), at most 80 characters (cut: 77 and an ellipsis); cut as text, then
-- escaped, so no cut falls inside an entity ("the host&#39")
local function figure_entry(id, inner, id_of, group)
  -- the marker: "<!--hbatest:chart NN-name.svg ALT-->" (ALT: the chart's title)
  local name = inner:match("<!%-%-hbatest:chart %d+%-([^ ]-)%.%a+[ %-]") or "chart"
  id = id and id_of(nil, id) or id_of("chart", name)
  local text = unescape((inner:match("<figcaption>(.-) — <code>") or inner:match("<figcaption>(.-)</figcaption>")
    or name):gsub("<[^>]*>", ""))
  group = group and unescape(group)
  if group and text:sub(1, #group) == group and #text > #group then
    text = text:sub(#group + 1):gsub("^:? *", "")
  end
  local clause = text:match("^(.-);")
  text = clause and clause .. "…" or text
  if utf8.len(text) and utf8.len(text) > 80 then text = text:sub(1, utf8.offset(text, 78) - 1) .. "…" end
  return id, esc(text)
end

-- Give every h2, h3 and figure of body an id (kept when it has one, unless
-- an earlier element has it: then made unique, as ids() does) and
-- return the body and its contents as a nested list: sections (h2), their
-- groups (h3) and charts.
local HEADING, FIGURE = "<(h[23])([^>]*)>(.-)</h[23]>", "<figure([^>]*)>(.-)</figure>"

function page.anchor(body, id_of)
  local toc, h2, h3 = {}, nil, nil
  local function entry(level, id, text)
    local e = { id = id, text = text, kids = {}, level = level }
    if level == 2 or not h2 then toc[#toc + 1] = e; h2, h3 = e, nil
    elseif level == 3 or not h3 then h2.kids[#h2.kids + 1] = e; h3 = level == 3 and e or nil
    else h3.kids[#h3.kids + 1] = e end
  end
  local out, pos = {}, 1
  local h, f = { body:find(HEADING) }, { body:find(FIGURE) }
  while h[1] or f[1] do
    local fig = f[1] and (not h[1] or f[1] < h[1])
    local m = fig and f or h
    local attrs = fig and m[3] or m[4]
    local id = attrs:match('id="([^"]+)"')
    attrs = attrs:gsub('%s*id="[^"]*"', "")
    out[#out + 1] = body:sub(pos, m[1] - 1)
    if fig then
      local text
      id, text = figure_entry(id, m[4], id_of, h3 and h3.text)
      entry(4, id, text)	-- (escaped by figure_entry)
      out[#out + 1] = ('<figure id="%s"%s>%s</figure>'):format(id, attrs, m[4])
    else
      local tag, inner = m[3], m[5]
      id = id and id_of(nil, id) or id_of(tag == "h2" and "sec" or "grp", inner)
      entry(tonumber(tag:sub(2)), id, (inner:gsub("<[^>]*>", "")))
      out[#out + 1] = ('<%s id="%s"%s>%s</%s>'):format(tag, id, attrs, inner, tag)
    end
    pos = m[2] + 1
    if fig then f = { body:find(FIGURE, pos) } else h = { body:find(HEADING, pos) } end
    if h[1] and h[1] < pos then h = { body:find(HEADING, pos) } end
    if f[1] and f[1] < pos then f = { body:find(FIGURE, pos) } end
  end
  out[#out + 1] = body:sub(pos)
  return table.concat(out), toc
end

-- A chart's words in a group's line of the contents: "IOPS", "mean and p99
-- latency" (its caption to " over ", " (", " from ")
local function short(text)
  for _, cut in ipairs{ " over ", " (", " from " } do
    local k = text:find(cut, 1, true)
    if k and k > 1 then text = text:sub(1, k - 1) end
  end
  return text
end

-- list joined by sep, those past the first `keep` folded into shell (a
-- format of their count and them: a <details> whose summary says "4 more"),
-- each link still in the page, a click away; none folded when one would be.
local function fold(list, keep, sep, shell)
  if #list <= keep + 1 then return table.concat(list, sep) end
  local head, rest = {}, {}
  for k, x in ipairs(list) do table.insert(k <= keep and head or rest, x) end
  return table.concat(head, sep) .. shell:format(#rest, table.concat(rest, sep))
end

local MORE_CHARTS = ' <details class="more"><summary>· %d more ▸</summary>%s</details>'
-- (a section's charts: two kept, so the fold numbers on from 3)
local MORE_ITEMS = '<li class="more"><details><summary>%d more ▸</summary><ol start="3">%s</ol></details></li>'

-- The contents as HTML: sections; under each its charts (past the second
-- folded), or its groups, each on one line: its first chart's link after
-- it, its others folded.
function page.toc_html(toc)
  local out = { '<nav class="toc" id="contents"><h2 id="sec-contents">Contents</h2><ol>' }
  local function link(e, text) return ('<a href="#%s">%s</a>'):format(e.id, text or e.text) end
  for _, sec in ipairs(toc) do
    out[#out + 1] = "<li>" .. link(sec)
    local items, charts_only = {}, true
    for k, e in ipairs(sec.kids) do
      local charts = {}
      for j, c in ipairs(e.kids) do charts[j] = link(c, short(c.text)) end
      items[k] = "<li>" .. link(e) .. (#charts > 0 and
        (': <span class="charts">' .. fold(charts, 1, " · ", MORE_CHARTS) .. "</span>") or "") .. "</li>"
      charts_only = charts_only and e.level == 4
    end
    if #items > 0 then
      out[#out + 1] = "<ol>" .. (charts_only and fold(items, 2, "", MORE_ITEMS) or table.concat(items)) .. "</ol>"
    end
    out[#out + 1] = "</li>"
  end
  out[#out + 1] = "</ol></nav>"
  return table.concat(out)
end

return page
