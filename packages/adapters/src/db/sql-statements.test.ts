import { describe, expect, it } from 'vitest'
import { sqlStatements } from './sql-statements'

describe('sqlStatements', () => {
  it('splits on semicolons between statements and drops comments and empty statements', () => {
    expect(sqlStatements('-- a table\ncreate table t (a int);\n\n/* two */ select 1;;\n-- trailing\n')).toEqual(['create table t (a int)', 'select 1'])
  })

  it('keeps semicolons and comment marks inside dollar-quoted bodies, strings and quoted identifiers', () => {
    const body = "create function f() returns int language plpgsql as $fn$\nbegin\n  -- one; two\n  return 1;\nend\n$fn$"
    const text = `${body};\nselect 'a;b''--c', "x;y" from t;\nselect $$;$$`
    expect(sqlStatements(text)).toEqual([body, `select 'a;b''--c', "x;y" from t`, 'select $$;$$'])
  })

  it('reads a dollar sign inside a word as part of it, not as a quote', () => {
    expect(sqlStatements("select format('%1$s', 1) as a$b; select 2")).toEqual(["select format('%1$s', 1) as a$b", 'select 2'])
  })

  it('refuses an unterminated quote rather than guess where the statement ends', () => {
    expect(() => sqlStatements('select $fn$ never closed;')).toThrow('unterminated $fn$ quote')
    expect(() => sqlStatements("select 'open;")).toThrow("unterminated ' quote")
  })
})
