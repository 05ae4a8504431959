import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Reads the sources (parsed, not type-checked: fast) for the texts a person may read that are
 * built where an error is thrown: every message given to `HttpError`, its shorthands
 * (core/http/errors.ts), `DestinationRefused` and `t`, and every field problem (`{field, message}`,
 * `{path, message}`). Each is a key of the catalogue (a literal, `t(key, ...)`, a choice between
 * such) or a value typed as a text elsewhere; a sentence built in place (a template with values,
 * a concatenation) or a literal missing from the catalogue is reported.
 */

export interface Finding {
  file: string;
  line: number;
  /** `missing`: a literal that is not a key; `built`: a sentence built in place. */
  kind: 'missing' | 'built';
  text: string;
}

/** Where the message (and the field problems) of each thrower are. */
const MESSAGE_ARGS: Record<string, { message?: number; noun?: number; details?: number }> = {
  badRequest: { message: 0, details: 1 },
  unauthorized: { message: 0 },
  forbidden: { message: 0 },
  notFound: { noun: 0 },
  conflict: { message: 0, details: 1 },
  payloadTooLarge: { message: 0 },
  unprocessable: { message: 0, details: 1 },
  invalidField: { message: 1 },
  validationFailed: { details: 0 },
  t: { message: 0 },
};
const CONSTRUCTORS: Record<string, { message: number; details?: number }> = {
  HttpError: { message: 2, details: 3 },
  DestinationRefused: { message: 0 },
};

/** The TypeScript files of a folder, tests excluded. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const calleeName = (expr: ts.Expression): string | undefined =>
  ts.isIdentifier(expr) ? expr.text : ts.isPropertyAccessExpression(expr) ? expr.name.text : undefined;

/** Scans files; `isKey` says whether a string is a key of the catalogue. */
export function scanThrownTexts(files: string[], isKey: (key: string) => boolean): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const report = (node: ts.Node, kind: Finding['kind'], text: string) =>
      findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, kind, text });

    const checkMessage = (expr: ts.Expression | undefined, wrap = (s: string) => s): void => {
      if (!expr) return;
      if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) return checkMessage(expr.expression, wrap);
      if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) {
        if (!isKey(wrap(expr.text))) report(expr, 'missing', wrap(expr.text));
        return;
      }
      if (ts.isTemplateExpression(expr)) return void report(expr, 'built', expr.getText(source));
      if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken)
        return void report(expr, 'built', expr.getText(source));
      if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) {
        checkMessage(expr.left, wrap);
        return checkMessage(expr.right, wrap);
      }
      if (ts.isConditionalExpression(expr)) {
        checkMessage(expr.whenTrue, wrap);
        return checkMessage(expr.whenFalse, wrap);
      }
      // Anything else (a variable, a call) is typed as a text by the compiler.
    };

    const checkDetails = (expr: ts.Expression | undefined): void => {
      if (expr && ts.isArrayLiteralExpression(expr))
        for (const element of expr.elements) if (ts.isObjectLiteralExpression(element)) checkProblem(element);
    };

    const checkProblem = (object: ts.ObjectLiteralExpression): void => {
      for (const property of object.properties)
        if (ts.isPropertyAssignment(property) && property.name.getText(source) === 'message')
          checkMessage(property.initializer);
    };

    const isProblemShape = (object: ts.ObjectLiteralExpression) => {
      const names = object.properties.map((p) => p.name?.getText(source));
      return names.includes('message') && (names.includes('field') || names.includes('path'));
    };

    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const args = MESSAGE_ARGS[calleeName(node.expression) ?? ''];
        if (args) {
          if (args.message !== undefined) checkMessage(node.arguments[args.message]);
          if (args.noun !== undefined) checkMessage(node.arguments[args.noun], (noun) => `${noun} not found`);
          if (args.details !== undefined) checkDetails(node.arguments[args.details]);
        }
      } else if (ts.isNewExpression(node)) {
        const args = CONSTRUCTORS[calleeName(node.expression) ?? ''];
        if (args) {
          checkMessage(node.arguments?.[args.message]);
          if (args.details !== undefined) checkDetails(node.arguments?.[args.details]);
        }
      } else if (ts.isObjectLiteralExpression(node) && isProblemShape(node)) checkProblem(node);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const seen = new Set<string>();
  return findings.filter((f) => {
    const id = `${f.file}:${f.line}:${f.text}`;
    return seen.has(id) ? false : (seen.add(id), true);
  });
}
