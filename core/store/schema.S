/* db/schema.sql, compiled into the binary as a NUL-terminated string. */
	.section .rodata
	.global hb_schema_sql
	.type hb_schema_sql, @object
hb_schema_sql:
	.incbin "db/schema.sql"
	.byte 0
	.size hb_schema_sql, . - hb_schema_sql
	.section .note.GNU-stack,"",@progbits
