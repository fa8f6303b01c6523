"""`atpad lsp` with Neovim's built-in client (docs/editors.md, "Neovim"): a headless Neovim
starts the server, opens a Markdown buffer, asks for completion at `@jo` and writes the
items to a file this test reads."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import atpad_binary

SCRIPT = r"""
local buf = vim.api.nvim_create_buf(true, false)
vim.api.nvim_buf_set_name(buf, vim.env.ATPAD_NVIM_DOC)
vim.api.nvim_set_current_buf(buf)
vim.api.nvim_buf_set_lines(buf, 0, -1, false, {'Thanks @jo'})
vim.bo[buf].filetype = 'markdown'
local id = vim.lsp.start_client({name = 'atpad', cmd = {vim.env.ATPAD_BIN, 'lsp', '-d', vim.env.ATPAD_PEOPLE},
                                 root_dir = vim.fn.getcwd()})
vim.lsp.buf_attach_client(buf, id)
vim.wait(20000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c ~= nil and c.initialized
end, 10)
local res = vim.lsp.buf_request_sync(buf, 'textDocument/completion',
  {textDocument = {uri = vim.uri_from_bufnr(buf)}, position = {line = 0, character = 10}}, 20000)
local lines = {}
for _, r in pairs(res or {}) do
  if r.err then table.insert(lines, 'error\t' .. vim.inspect(r.err)) end
  for _, item in ipairs((r.result or {}).items or {}) do
    table.insert(lines, item.label .. '\t' .. item.textEdit.newText)
  end
end
vim.fn.writefile(lines, vim.env.ATPAD_NVIM_OUT)
vim.cmd('qa!')
"""


@pytest.mark.skipif(shutil.which("nvim") is None, reason="scripts/setup --tests installs neovim")
def test_neovim_completes_at_at(tmp_path):
    people = tmp_path / "people.json"
    people.write_text(json.dumps([{"id": "u1", "name": "John Doe", "handle": "jdoe"},
                                  {"id": "u2", "name": "Jane Roe", "handle": "jroe"},
                                  {"id": "u3", "name": "Johanna Lee", "handle": "jlee"}]))
    script, out = tmp_path / "complete.lua", tmp_path / "items.txt"
    script.write_text(SCRIPT)
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "ATPAD_BIN": atpad_binary(), "ATPAD_PEOPLE": str(people),
           "ATPAD_NVIM_DOC": str(tmp_path / "comment.md"), "ATPAD_NVIM_OUT": str(out)}
    subprocess.run(["nvim", "--headless", "--clean", "-u", "NONE", "-c", f"luafile {script}"], env=env,
                   cwd=tmp_path, timeout=60, check=True, capture_output=True, stdin=subprocess.DEVNULL)
    items = [line.split("\t") for line in out.read_text().splitlines()]
    search = subprocess.run([atpad_binary(), "search", "jo", "-d", str(people), "--no-frecency"], env=env,
                            capture_output=True, text=True, check=True)
    ranked = [line.split("\t") for line in search.stdout.splitlines()]
    assert items == [[name, "@" + handle] for _, name, handle in ranked]
    assert items[0] == ["John Doe", "@jdoe"]
