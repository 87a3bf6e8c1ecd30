" Waits for vim.diagnostic to have the buffer's diagnostics (published by
" tools/editors/interop-tidy.lua when the buffer was read) and writes them
" to $EDITOR_OUT as LINE:COL:SEVERITY:CODE:MESSAGE lines; then quits.
lua <<LUA
vim.wait(120000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, string.format("%d:%d:%d:%s:%s", d.lnum + 1, d.col + 1,
                                  d.severity, d.code or "", d.message))
end
vim.fn.writefile(out, os.getenv("EDITOR_OUT"))
LUA
qall!
