" Lints the current buffer with ALE, waits for it, and writes ALE's list of
" problems to $EDITOR_OUT as LINE:COL:TYPE:TEXT lines; then quits. Loaded
" after the configuration under test (docs/editors.md's vim-ale block).
ALELint
let s:waited = 0
while s:waited < 1200 && (s:waited < 3 || ale#engine#IsCheckingBuffer(bufnr('')))
  sleep 100m
  let s:waited += 1
endwhile
let s:out = []
for s:item in ale#engine#GetLoclist(bufnr(''))
  call add(s:out, printf('%d:%d:%s:%s', s:item.lnum, s:item.col, s:item.type, s:item.text))
endfor
call writefile(s:out, $EDITOR_OUT)
qall!
