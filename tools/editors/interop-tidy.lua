-- interop-tidy.lua: the interop-tidy checks in Neovim's built-in diagnostics
-- (vim.diagnostic, Neovim 0.6 and later), with no linter plugin.
--
-- Runs the interop-tidy wrapper (clang-tidy 22 with the plugin loaded) on a
-- C/C++ file when its buffer is read or written, with the file's compile
-- database, and publishes clang-tidy's warnings and errors as diagnostics
-- (notes become hints at their own lines). clang-tidy reads the file from
-- disk: a modified buffer is linted when it is written. See docs/editors.md.
--
--   require("interop-tidy").setup({
--     cmd = "/path/to/interop-tidy/build/bin/interop-tidy",
--     args = { "--checks=-*,interop-*" },  -- default: the project's .clang-tidy
--     build = nil,  -- directory of compile_commands.json; nil: searched upwards
--   })

local M = {}

M.namespace = vim.api.nvim_create_namespace("interop-tidy")
M.config = { cmd = "interop-tidy", args = {}, build = nil,
             pattern = { "*.c", "*.cc", "*.cpp", "*.cxx", "*.cu", "*.h", "*.hpp" } }

local severity = {
  error = vim.diagnostic.severity.ERROR,
  warning = vim.diagnostic.severity.WARN,
  note = vim.diagnostic.severity.HINT,
}

-- The nearest directory above `file` holding compile_commands.json, itself
-- or in its build/ subdirectory.
local function find_build(file)
  local dir = vim.fn.fnamemodify(file, ":p:h")
  while true do
    for _, candidate in ipairs({ dir, dir .. "/build" }) do
      if vim.fn.filereadable(candidate .. "/compile_commands.json") == 1 then
        return candidate
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

-- clang-tidy names files as their compile command does, possibly relative
-- to the command's directory: a relative name matches the end of the path.
local function same_file(reported, file)
  if reported:sub(1, 1) == "/" then
    return vim.loop.fs_realpath(reported) == vim.loop.fs_realpath(file)
  end
  return file:sub(-(#reported + 1)) == "/" .. reported
end

-- Diagnostics of `file` in clang-tidy's output lines.
function M.parse(lines, file)
  local out = {}
  for _, line in ipairs(lines) do
    local path, lnum, col, level, text = line:match("^(.-):(%d+):(%d+): (%a+): (.*)$")
    if path and severity[level] and same_file(path, file) then
      local message, code = text:match("^(.*) %[([%w%-%.,]+)%]$")
      table.insert(out, {
        lnum = tonumber(lnum) - 1,
        col = tonumber(col) - 1,
        severity = severity[level],
        message = message or text,
        code = code,
        source = "interop-tidy",
      })
    end
  end
  return out
end

-- Lints the file of buffer `bufnr` (default: the current one); calls
-- `on_done(diagnostics)` when clang-tidy has finished.
function M.lint(bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local file = vim.api.nvim_buf_get_name(bufnr)
  if file == "" or vim.bo[bufnr].modified then
    return
  end
  local cmd = { M.config.cmd, "--quiet" }
  vim.list_extend(cmd, M.config.args)
  local build = M.config.build or find_build(file)
  if build then
    vim.list_extend(cmd, { "-p", build })
  end
  table.insert(cmd, file)
  local output = {}
  local function collect(_, data)
    vim.list_extend(output, data)
  end
  local job = vim.fn.jobstart(cmd, {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = collect,
    on_stderr = collect,
    on_exit = function(_, status)
      local diagnostics = M.parse(output, file)
      if status ~= 0 and #diagnostics == 0 then
        -- Never a silent pass: a failed run (the plugin refused this
        -- clang-tidy, no compile command) is shown on the first line.
        local reason = table.concat(vim.tbl_filter(function(l) return l ~= "" end, output), " ")
        table.insert(diagnostics, { lnum = 0, col = 0, severity = vim.diagnostic.severity.ERROR,
          source = "interop-tidy",
          message = ("interop-tidy exited %d: %s"):format(status, reason) })
      end
      if vim.api.nvim_buf_is_valid(bufnr) then
        vim.diagnostic.set(M.namespace, bufnr, diagnostics)
      end
      if on_done then
        on_done(diagnostics)
      end
    end,
  })
  if job <= 0 then
    vim.notify("interop-tidy: cannot run " .. M.config.cmd, vim.log.levels.ERROR)
  end
end

function M.setup(opts)
  M.config = vim.tbl_extend("force", M.config, opts or {})
  local group = vim.api.nvim_create_augroup("interop-tidy", { clear = true })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufWritePost" }, {
    group = group,
    pattern = M.config.pattern,
    callback = function(args)
      M.lint(args.buf)
    end,
  })
end

return M
