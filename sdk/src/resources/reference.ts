import type { HttpClient } from '../core/http.js';
import type { APIPromise } from '../core/api-promise.js';
import { paginate, type PagePromise } from '../core/pagination.js';
import type { AccountBalance, EditMaterial, EditMaterialCategory, EditMaterialListParams, List, Price, RequestOptions, Style } from '../types.js';

/**
 * `GET /v1/styles`: every decoration style in one answer. **Permission: `decorations`** (a
 * renders-only key is refused with `PermissionDeniedError`; a render with an unknown `style`
 * names the valid ids in its error message).
 */
export class Styles {
  constructor(private readonly http: HttpClient) {}

  /** Every style (permission `decorations`). */
  list(options?: RequestOptions): APIPromise<List<Style>> {
    return this.http.call<List<Style>>({ method: 'GET', path: '/styles' }, options);
  }
}

/** `GET /v1/edit-material-categories`: every category in one answer. **Permission: `edits`.** */
export class EditMaterialCategories {
  constructor(private readonly http: HttpClient) {}

  /** Every category (permission `edits`). */
  list(options?: RequestOptions): APIPromise<List<EditMaterialCategory>> {
    return this.http.call<List<EditMaterialCategory>>({ method: 'GET', path: '/edit-material-categories' }, options);
  }
}

/**
 * `GET /v1/balance` (a Roomtone addition to the spec): the balance object (`amount` in euro
 * cents) with the monthly limit and the spend so far this month. **Any permission.**
 */
export class BalanceResource {
  constructor(private readonly http: HttpClient) {}

  /** The organization's balance, monthly limit and spend this month, in cents (any permission; test keys read the same figures). */
  retrieve(options?: RequestOptions): APIPromise<AccountBalance> {
    return this.http.call<AccountBalance>({ method: 'GET', path: '/balance' }, options);
  }
}

/** `GET /v1/edit-materials`: paginated; `await` for a page or `for await` for every material. **Permission: `edits`.** */
export class EditMaterials {
  constructor(private readonly http: HttpClient) {}

  list(params: EditMaterialListParams = {}, options?: RequestOptions): PagePromise<EditMaterial> {
    return paginate<EditMaterial>(this.http, '/edit-materials', params, options);
  }
}

/**
 * `GET /v1/prices`: the price of each type at each quality or scale for the key's organization,
 * its tier discount applied (the `cost.amount` a creation accepted now gets), in cents.
 */
export class Prices {
  constructor(private readonly http: HttpClient) {}

  /** Every price of the key's organization (any creation permission). */
  list(options?: RequestOptions): APIPromise<List<Price>> {
    return this.http.call<List<Price>>({ method: 'GET', path: '/prices' }, options);
  }
}
