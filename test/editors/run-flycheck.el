;;; Runs Flycheck on $EDITOR_FILE after the configuration under test
;;; (docs/editors.md's flycheck block, loaded before this file) and writes
;;; its errors to $EDITOR_OUT as LINE:COL:LEVEL:ID:MESSAGE lines.
(find-file (getenv "EDITOR_FILE"))
(unless (bound-and-true-p flycheck-mode)
  (error "flycheck-mode is not on in %s (%s)" (buffer-name) major-mode))
(flycheck-buffer)
(let ((deadline (+ (float-time) 120)))
  (while (and (flycheck-running-p) (< (float-time) deadline))
    (accept-process-output nil 0.05)))
(let ((errors flycheck-current-errors)
      (status flycheck-last-status-change))
  (with-temp-file (getenv "EDITOR_OUT")
    (insert (format "status:%s\n" status))
    (dolist (e errors)
      (insert (format "%s:%s:%s:%s:%s\n" (flycheck-error-line e) (flycheck-error-column e)
                      (flycheck-error-level e) (or (flycheck-error-id e) "")
                      (flycheck-error-message e))))))
