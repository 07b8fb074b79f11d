/* db/migrations/NNNN-*.sql, compiled into the binary: hb_migrations[] is
 * { file name, NUL-terminated text } per file, in order, then { 0, 0 }.
 * A new migration is a new file and one line at the end of the list. */
	.macro migration file
	.section .rodata
.Lname\@:
	.asciz "\file"
.Lsql\@:
	.incbin "db/migrations/\file"
	.byte 0
	.section .data.rel.ro,"aw"
	.dc.a .Lname\@, .Lsql\@
	.endm

	.section .data.rel.ro,"aw"
	.p2align 3
	.global hb_migrations
	.type hb_migrations, @object
hb_migrations:
	migration "0002-steps-on-error.sql"
	migration "0003-report-views.sql"
	migration "0004-run-source-step-placement.sql"
	migration "0005-runs-steps-planned.sql"
	migration "0006-runs-cwd.sql"
	migration "0007-run-notes-telemetry.sql"
	migration "0008-resumes.sql"
	migration "0009-year-indexes.sql"
	migration "0010-host-cpu.sql"
	migration "0011-fio-hosts.sql"
	migration "0012-card-views.sql"
	.section .data.rel.ro,"aw"
	.dc.a 0, 0
	.size hb_migrations, . - hb_migrations
	.section .note.GNU-stack,"",@progbits
