;;; flycheck-interop-tidy.el --- Flycheck checker for interop-tidy -*- lexical-binding: t; -*-

;; A Flycheck syntax checker `interop-tidy' that runs clang-tidy 22 with the
;; interop-tidy plugin (through the `interop-tidy' wrapper, which adds
;; --load) on the saved file, with the compile database of its project.
;; Flycheck has no clang-tidy checker of its own.  See docs/editors.md.
;;
;; Usage:
;;   (load "/path/to/interop-tidy/tools/editors/flycheck-interop-tidy.el")
;;   (setq flycheck-interop-tidy-executable "/path/to/interop-tidy/build/bin/interop-tidy")
;;   (add-hook 'c++-mode-hook #'flycheck-mode)
;;
;; The checks are those of the project's .clang-tidy, or
;; `flycheck-interop-tidy-checks'.  clang-tidy reads the file from disk, so
;; the checker runs on saved buffers only.

;;; Code:

(require 'flycheck)
(require 'json)

(flycheck-def-option-var flycheck-interop-tidy-build-path nil interop-tidy
  "Directory holding compile_commands.json.
When nil, the nearest directory above the file that has one, or a
`build' subdirectory that has one."
  :type '(choice (const :tag "Search upwards" nil) (directory :tag "Build directory"))
  :safe #'stringp)

(flycheck-def-option-var flycheck-interop-tidy-checks nil interop-tidy
  "Value of clang-tidy's --checks, e.g. \"-*,interop-*\"; nil: .clang-tidy decides."
  :type '(choice (const :tag "From .clang-tidy" nil) (string :tag "Checks"))
  :safe #'stringp)

(flycheck-def-args-var flycheck-interop-tidy-extra-args interop-tidy)

(defun flycheck-interop-tidy--build-path ()
  "The build directory for the current buffer, or nil."
  (or flycheck-interop-tidy-build-path
      (let* ((has-db (lambda (dir) (file-exists-p (expand-file-name "compile_commands.json" dir))))
             (root (and buffer-file-name
                        (locate-dominating-file
                         buffer-file-name
                         (lambda (dir) (or (funcall has-db dir)
                                           (funcall has-db (expand-file-name "build" dir))))))))
        (when root
          (if (funcall has-db root) root (expand-file-name "build" root))))))

(defvar flycheck-interop-tidy--database nil
  "The last compile database read: (FILE MTIME TABLE), TABLE mapping each
source file to the directory of its compile command.")

(defun flycheck-interop-tidy--working-directory (_checker)
  "The directory of the buffer's compile command.
clang-tidy prints file names as its compile command has them, relative to
that directory; Flycheck resolves them against the working directory."
  (let* ((build (flycheck-interop-tidy--build-path))
         (db (and build (expand-file-name "compile_commands.json" build)))
         (mtime (and db (file-attribute-modification-time (file-attributes db)))))
    (when (and db (not (and (equal (nth 0 flycheck-interop-tidy--database) db)
                            (equal (nth 1 flycheck-interop-tidy--database) mtime))))
      (let ((table (make-hash-table :test #'equal)))
        (mapc (lambda (entry)
                (let ((dir (alist-get 'directory entry)))
                  (puthash (expand-file-name (alist-get 'file entry) dir) dir table)))
              (let ((json-array-type 'list) (json-object-type 'alist))
                (json-read-file db)))
        (setq flycheck-interop-tidy--database (list db mtime table))))
    (or (and db buffer-file-name
             (gethash (expand-file-name buffer-file-name)
                      (nth 2 flycheck-interop-tidy--database)))
        default-directory)))

(flycheck-define-checker interop-tidy
  "clang-tidy 22 with the interop-tidy checks, through the interop-tidy wrapper."
  :command ("interop-tidy" "--quiet"
            (option "--checks=" flycheck-interop-tidy-checks concat)
            (eval (let ((build (flycheck-interop-tidy--build-path)))
                    (when build (list "-p" build))))
            (eval flycheck-interop-tidy-extra-args)
            source-original)
  :error-patterns
  ((error line-start (file-name) ":" line ":" column ": error: "
          (message (minimal-match (one-or-more not-newline)))
          (optional " [" (id (one-or-more (not (any "]")))) "]") line-end)
   (warning line-start (file-name) ":" line ":" column ": warning: "
            (message (minimal-match (one-or-more not-newline)))
            (optional " [" (id (one-or-more (not (any "]")))) "]") line-end)
   (info line-start (file-name) ":" line ":" column ": note: "
         (message (one-or-more not-newline)) line-end))
  :working-directory flycheck-interop-tidy--working-directory
  :modes (c-mode c++-mode)
  ;; clang-tidy analyses the file on disk, with its compile command.
  :predicate (lambda () (and buffer-file-name (not (buffer-modified-p)))))

(add-to-list 'flycheck-checkers 'interop-tidy)

(provide 'flycheck-interop-tidy)
;;; flycheck-interop-tidy.el ends here
